fn main() -> std::process::ExitCode {
    stone::main()
}
