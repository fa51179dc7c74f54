//! `stone env`: list, show, add, remove environments.

use std::fmt::Write as _;

use stone_push::environment::{EnvironmentOptions, StepUpOptions};

use crate::cli::{EnvAddArgs, EnvCommand, GlobalArgs};
use crate::config::{Config, config_path};
use crate::printer::Printer;

pub fn run(command: &EnvCommand, global: &GlobalArgs) -> anyhow::Result<()> {
    let mut config = Config::load(config_path(global.config.as_deref())?)?;
    match command {
        EnvCommand::List(args) => {
            let printer = Printer::new(global, args.json);
            if printer.json() {
                printer.result(config.environments(), String::new)?;
            } else if config.environments().is_empty() {
                eprintln!(
                    "No environments are configured in {}.",
                    config.path.display()
                );
                eprintln!("Add one with: stone env add prod --host HOST --api URL");
            } else {
                let mut out = String::new();
                for (name, env) in config.environments() {
                    let _ = writeln!(out, "{name}\t{}\t{}", env.host, env.api);
                }
                print!("{out}");
            }
        }
        EnvCommand::Show(args) => {
            let env = config.environment(&args.name)?;
            Printer::new(global, args.json.json)
                .result(&env, || describe(&env.name, &env.options))?;
        }
        EnvCommand::Add(args) => {
            let options = options_from(args);
            config.add(&args.name, options, args.replace)?;
            Printer::new(global, false).note(format_args!(
                "Saved environment `{}` in {}.",
                args.name,
                config.path.display()
            ));
        }
        EnvCommand::Remove(args) => {
            config.remove(&args.name)?;
            Printer::new(global, false).note(format_args!(
                "Removed environment `{}` from {}.",
                args.name,
                config.path.display()
            ));
        }
    }
    Ok(())
}

fn options_from(args: &EnvAddArgs) -> EnvironmentOptions {
    let step_up = (args.acr_values.is_some() || args.max_age.is_some()).then(|| StepUpOptions {
        acr_values: args.acr_values.clone(),
        max_age: args.max_age,
    });
    EnvironmentOptions {
        host: args.host.clone(),
        api: args.api.clone(),
        issuer: args.issuer.clone(),
        client_id: args.client_id.clone(),
        step_up,
    }
}

fn describe(name: &str, env: &EnvironmentOptions) -> String {
    let mut out = format!(
        "name:      {name}\nhost:      {}\napi:       {}\n",
        env.host, env.api
    );
    if let Some(issuer) = &env.issuer {
        let _ = writeln!(out, "issuer:    {issuer}");
    }
    if let Some(client_id) = &env.client_id {
        let _ = writeln!(out, "client_id: {client_id}");
    }
    if let Some(step_up) = &env.step_up {
        if let Some(acr) = &step_up.acr_values {
            let _ = writeln!(out, "step_up.acr_values: {acr}");
        }
        if let Some(max_age) = step_up.max_age {
            let _ = writeln!(out, "step_up.max_age:    {max_age}");
        }
    }
    out
}
