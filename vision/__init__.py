"""Camera calibration, card recognition and play tracking (not built yet)."""
