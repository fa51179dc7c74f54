//! `csv2parquet SRC DST`: the client's CSV → Parquet conversion on its own, for benchmarks.

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, src, dst] = args.as_slice() else {
        eprintln!("usage: csv2parquet SRC.csv DST.parquet");
        std::process::exit(2);
    };
    let src = std::path::Path::new(src);
    let format = stone_package::Format::detect(src).unwrap_or(stone_package::Format::Csv);
    let options = stone_formats::CsvOptions::new(src, format, None).expect("options");
    match stone_formats::csv_to_parquet(src, std::path::Path::new(dst), &options, None, &|_| {}) {
        Ok(c) => println!("{}", serde_json::to_string(&c).expect("json")),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
}
