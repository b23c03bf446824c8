//! Team-game tests (placeholder).
