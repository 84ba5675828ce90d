-- Where a click was counted (the redirect, or an app reporting it through the mobile SDK) and the
-- number the mobile SDK handed back for it. Rows written before carry '' and 0.
ALTER TABLE clicks ADD COLUMN IF NOT EXISTS source LowCardinality(String) DEFAULT '';
ALTER TABLE clicks ADD COLUMN IF NOT EXISTS click_id UInt64 DEFAULT 0;
