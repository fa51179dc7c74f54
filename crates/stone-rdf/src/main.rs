//! `stone` built with RDF support, under the name the base `stone` looks for beside itself.

fn main() -> std::process::ExitCode {
    stone::main()
}
