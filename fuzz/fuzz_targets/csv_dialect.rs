#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| stone_fuzz::run("csv_dialect", data));
