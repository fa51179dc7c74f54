//! `stone man`: the man pages and completion scripts generated from the clap definition at
//! build time (`build.rs`), embedded in the binary.

use std::io::Write as _;
use std::path::Path;

use anyhow::Context as _;

use crate::cli::ManArgs;
use crate::codes;
use crate::diagnostics::CliError;

include!(concat!(env!("OUT_DIR"), "/generated.rs"));

pub fn run(args: &ManArgs) -> anyhow::Result<()> {
    if args.list {
        for (path, _) in GENERATED {
            println!("{path}");
        }
        return Ok(());
    }
    if let Some(dir) = &args.dir {
        return write_all(dir);
    }
    let page = args.page.as_deref().unwrap_or("stone");
    let page = page.strip_suffix(".1").unwrap_or(page);
    let wanted = format!("man/man1/{page}.1");
    let Some((_, roff)) = GENERATED.iter().find(|(path, _)| *path == wanted) else {
        let pages: Vec<&str> = GENERATED
            .iter()
            .filter_map(|(p, _)| p.strip_prefix("man/man1/")?.strip_suffix(".1"))
            .collect();
        return Err(CliError::new(
            codes::MAN_UNKNOWN_PAGE,
            format!("there is no man page '{page}'"),
        )
        .hint(format!("the pages are: {}", pages.join(", ")))
        .into());
    };
    std::io::stdout()
        .write_all(roff)
        .context("could not write the man page to stdout")
}

fn write_all(dir: &Path) -> anyhow::Result<()> {
    for (path, bytes) in GENERATED {
        let to = dir.join(path);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("could not create {}", parent.display()))?;
        }
        std::fs::write(&to, bytes).with_context(|| format!("could not write {}", to.display()))?;
        println!("{}", to.display());
    }
    Ok(())
}
