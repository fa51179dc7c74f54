//! Progress of `stone package push` on stderr: a hashing bar, conversion lines, and the
//! push's lines with a byte bar for uploads (bars only on a terminal, nothing under
//! `--quiet`).

use std::sync::Mutex;

use indicatif::{HumanBytes, ProgressBar, ProgressDrawTarget, ProgressStyle};
use stone_package::digest::HashProgress;
use stone_push::prepare::PrepareProgress;
use stone_push::{ProgressEvent, PushProgress};

use crate::diagnostics::terminal_safe;
use crate::printer::{Printer, on_terminal};

/// Conversion lines on stderr.
pub(super) struct Lines(pub(super) Printer);

impl PrepareProgress for Lines {
    fn converting(&self, resource: &str, bytes: u64) {
        self.0.note(format_args!(
            "converting {resource} to Parquet ({})",
            HumanBytes(bytes)
        ));
    }
}

/// Push progress: a byte bar for uploads on a terminal, plain lines otherwise (also under
/// `--json`, whose document is on stdout).
pub(super) struct PushLines {
    printer: Printer,
    bar: Mutex<Option<ProgressBar>>,
}

impl PushLines {
    pub(super) fn new(printer: Printer) -> Self {
        PushLines {
            printer,
            bar: Mutex::new(None),
        }
    }

    fn line(&self, text: String) {
        if self.printer.quiet() {
            return;
        }
        // Server statuses and plugin logs: never raw escape sequences on the terminal.
        let text = terminal_safe(&text).into_owned();
        match self.bar.lock().ok().and_then(|b| b.clone()) {
            Some(bar) => bar.println(text),
            None => eprintln!("{text}"),
        }
    }
}

impl PushProgress for PushLines {
    fn event(&self, event: ProgressEvent) {
        match event {
            ProgressEvent::Created {
                push_id,
                resumed,
                to_upload,
                files,
                already_staged,
            } => {
                let verb = if resumed { "resuming push" } else { "push" };
                self.line(format!(
                    "{verb} {push_id}: {files} files to upload ({}), {already_staged} already on the server",
                    HumanBytes(to_upload)
                ));
                if !self.printer.quiet() && to_upload > 0 && on_terminal() {
                    let bar = ProgressBar::with_draw_target(
                        Some(to_upload),
                        ProgressDrawTarget::stderr(),
                    );
                    bar.set_style(
                        ProgressStyle::with_template("uploading {bar:30} {bytes}/{total_bytes} {binary_bytes_per_sec} eta {eta}")
                            .expect("a valid template"),
                    );
                    if let Ok(mut slot) = self.bar.lock() {
                        *slot = Some(bar);
                    }
                }
            }
            ProgressEvent::Uploaded { bytes } => {
                if let Some(bar) = self.bar.lock().ok().and_then(|b| b.clone()) {
                    bar.inc(bytes);
                }
            }
            ProgressEvent::Committing { push_id } => {
                if let Some(bar) = self.bar.lock().ok().and_then(|mut b| b.take()) {
                    bar.finish_and_clear();
                }
                self.line(format!("committing push {push_id}"));
            }
            ProgressEvent::Dataset {
                name,
                state,
                status,
            } => match status {
                Some(status) => self.line(format!("  {name}: {state} ({status})")),
                None => self.line(format!("  {name}: {state}")),
            },
            ProgressEvent::Note(note) => self.line(note),
        }
    }
}

/// A hashing progress bar, drawn only on a terminal.
pub(super) struct HashBar(Option<ProgressBar>);

impl HashBar {
    pub(super) fn new(printer: Printer, total: u64) -> Self {
        if !printer.progress_bars() {
            return HashBar(None);
        }
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template(
                "hashing {bar:30} {bytes}/{total_bytes} {binary_bytes_per_sec} eta {eta}",
            )
            .expect("a valid template"),
        );
        HashBar(Some(bar))
    }

    pub(super) fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

impl HashProgress for HashBar {
    fn advance(&self, bytes: u64) {
        if let Some(bar) = &self.0 {
            bar.inc(bytes);
        }
    }
}
