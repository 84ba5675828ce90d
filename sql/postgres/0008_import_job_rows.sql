-- The rows of a CSV import job (POST /imports/csv), stored when the job is started so that a worker
-- of any instance reads them and a restart resumes from the job's cursor (the number of the next
-- data row). Each entry holds a run of consecutive data rows as a JSON array of cell arrays; the
-- job's entries go when it ends.
create table if not exists import_job_rows (
  job_id bigint not null references import_jobs (id) on delete cascade,
  -- The number of the entry's first data row (1: the first row after the header).
  first_row integer not null,
  -- [[cell, …], …]: the rows as read from the file.
  cells text not null,
  primary key (job_id, first_row)
);
