-- CreateTable
CREATE TABLE "saved_views" (
    "id" UUID NOT NULL,
    "page" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "params" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "saved_views_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "saved_views_page_name_key" ON "saved_views"("page", "name");


-- The pages a view can belong to (lib/saved-views/schema.ts SAVED_VIEW_PAGES).
ALTER TABLE "saved_views" ADD CONSTRAINT "saved_views_page_check" CHECK ("page" IN ('history', 'insights'));
