//! Fuzz target: `warsim::fuzzing::cards` (see src/fuzzing.rs).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| warsim::fuzzing::cards(data));
