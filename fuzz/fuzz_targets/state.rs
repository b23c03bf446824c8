//! Fuzz target: `warsim::fuzzing::state` (see src/fuzzing.rs).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| warsim::fuzzing::state(data));
