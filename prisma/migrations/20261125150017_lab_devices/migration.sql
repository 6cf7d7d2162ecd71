-- Lab devices registered by lab nodes over NATS (owned by apps/qpu-broker; issue 17).

-- CreateTable
CREATE TABLE "lab_devices" (
    "id" TEXT NOT NULL,
    "lab" TEXT NOT NULL,
    "node_id" TEXT NOT NULL,
    "device" JSONB NOT NULL,
    "registered_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "lab_devices_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "lab_devices_lab_idx" ON "lab_devices"("lab");
