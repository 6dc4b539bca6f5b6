"""One module per push protocol. Each turns a `PushMessage` for one device into one
request to its provider and says what came of it (`SendResult`); retry timing, token
removal and metrics are the caller's (push.tasks), so every protocol is handled alike."""
