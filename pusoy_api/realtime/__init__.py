"""Waking waiting clients across processes, for every app: `notify` sends the keys a
commit changed (PostgreSQL NOTIFY), `longpoll` holds the waiting requests and wakes them.
Neither knows any app: a key is `<kind>:<id>`, and the app that owns a kind registers how
to re-check it (`longpoll.register_probe`, from its AppConfig.ready)."""
