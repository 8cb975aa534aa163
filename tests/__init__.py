# How long a test waits for work done elsewhere (a worker process, the bot's own process)
# before it fails saying what it waited for: a safety deadline, never a measure (such a
# wait ends as soon as the work is done), below every test's own deadline (pyproject.toml)
WORK_SECONDS = 240.0
