-- Assistant threads, messages and usage; owned (written) by apps/assistant.
-- A thread id is chosen by the client, so it is unique per owner only: another owner's id is a different thread.
CREATE TABLE "assistant_threads" (
    "owner_id" UUID NOT NULL,
    "id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "assistant_threads_pkey" PRIMARY KEY ("owner_id", "id")
);

CREATE TABLE "assistant_messages" (
    "id" BIGSERIAL NOT NULL,
    "owner_id" UUID NOT NULL,
    "thread_id" TEXT NOT NULL,
    "run_id" UUID NOT NULL,
    "role" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "assistant_messages_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "assistant_messages_owner_id_thread_id_id_idx" ON "assistant_messages"("owner_id", "thread_id", "id");

CREATE TABLE "assistant_usage" (
    "run_id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "thread_id" TEXT NOT NULL,
    "engine" TEXT NOT NULL,
    "model" TEXT,
    "status" TEXT NOT NULL,
    "prompt_tokens" INTEGER NOT NULL DEFAULT 0,
    "completion_tokens" INTEGER NOT NULL DEFAULT 0,
    "tool_calls" INTEGER NOT NULL DEFAULT 0,
    "repairs" INTEGER NOT NULL DEFAULT 0,
    "duration_ms" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "assistant_usage_pkey" PRIMARY KEY ("run_id")
);

CREATE INDEX "assistant_usage_owner_id_created_at_idx" ON "assistant_usage"("owner_id", "created_at");

ALTER TABLE "assistant_messages" ADD CONSTRAINT "assistant_messages_owner_id_thread_id_fkey" FOREIGN KEY ("owner_id", "thread_id") REFERENCES "assistant_threads"("owner_id", "id") ON DELETE CASCADE ON UPDATE CASCADE;
