//! `csv2parquet SRC DST [--workers N] [--chunk-mb M]`: the client's CSV → Parquet conversion
//! on its own, for benchmarks. By default one worker per core and the converter's chunk
//! (row group) size, as `stone package push` runs it.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = || -> ! {
        eprintln!("usage: csv2parquet SRC.csv DST.parquet [--workers N] [--chunk-mb M]");
        std::process::exit(2);
    };
    let mut tuning = stone_formats::Tuning::default();
    let mut paths = Vec::new();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let mut number = || -> usize {
            rest.next()
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| usage())
        };
        match arg.as_str() {
            "--workers" => tuning.workers = number(),
            "--chunk-mb" => tuning.chunk_bytes = number() << 20,
            _ if arg.starts_with("--") => usage(),
            _ => paths.push(arg),
        }
    }
    let [src, dst] = paths.as_slice() else {
        usage()
    };
    let src = std::path::Path::new(src);
    let format = stone_package::Format::detect(src).unwrap_or(stone_package::Format::Csv);
    let options = stone_formats::CsvOptions::new(src, format, None).expect("options");
    let dst = std::path::Path::new(dst);
    match stone_formats::csv_to_parquet_tuned(src, dst, &options, None, &|_| {}, tuning) {
        Ok(c) => println!("{}", serde_json::to_string(&c).expect("json")),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
}
