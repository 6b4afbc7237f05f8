"""The service layer: the application service (`service.application.Rollcall`), the one write path over the
event store, with the access and tournament commands; it uses the pure domain and the store's adapters."""
