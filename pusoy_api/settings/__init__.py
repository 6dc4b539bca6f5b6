"""Settings modules: `base` reads everything from the environment; `test` tunes it for pytest."""
