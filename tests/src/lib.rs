//! Cross-crate test helpers.
