//! Cardwars tests.
