"""Push notifications to closed apps: devices, preferences, an outbox and a Celery queue
of its own (`push`), and one provider module per protocol (APNs, FCM, Web Push)."""
