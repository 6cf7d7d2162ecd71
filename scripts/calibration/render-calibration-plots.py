"""Renders calibration plots with matplotlib for the plot reader's tests and benchmark (an independent renderer:
the reader never sees how a figure was made). Reads a JSON list of figure specs on stdin; writes one PNG per spec.

Spec: {path, title, x_label, y_label, series: [{x, y, label}], style: {width, height, dpi,
grid, legend, marker, markersize, line (bool: join data points), fit_lines (bool: a fitted line per series), theme}}.
Run: /usr/bin/python3 scripts/calibration/render-calibration-plots.py < specs.json   (Debian python3-matplotlib)
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def render(spec):
    style = spec.get("style", {})
    theme = style.get("theme", "default")
    with plt.style.context(theme):
        fig, ax = plt.subplots(figsize=(style.get("width", 6.4), style.get("height", 4.8)), dpi=style.get("dpi", 100))
        for i, s in enumerate(spec["series"]):
            fmt = style.get("marker", "o") + ("-" if style.get("line") else "")
            ax.plot(s["x"], s["y"], fmt, markersize=style.get("markersize", 5), label=s.get("label"), color=f"C{i}")
        if style.get("fit_lines"):
            # Least-squares line per series, drawn in the series' colour (as DRAG plots show them).
            for i, s in enumerate(spec["series"]):
                slope, intercept = np.polyfit(s["x"], s["y"], 1)
                xs = np.array([min(s["x"]), max(s["x"])])
                ax.plot(xs, slope * xs + intercept, "-", color=f"C{i}", linewidth=1.5, label=f"fit {s.get('label', i)}")
        if spec.get("title"):
            ax.set_title(spec["title"])
        if spec.get("x_label"):
            ax.set_xlabel(spec["x_label"])
        if spec.get("y_label"):
            ax.set_ylabel(spec["y_label"])
        if style.get("grid"):
            ax.grid(True, alpha=0.4)
        if style.get("legend"):
            ax.legend(loc=style.get("legend_loc", "best"))
        fig.tight_layout()
        fig.savefig(spec["path"], format=spec.get("format", "png"))
        plt.close(fig)


def main():
    for spec in json.load(sys.stdin):
        render(spec)


if __name__ == "__main__":
    main()
