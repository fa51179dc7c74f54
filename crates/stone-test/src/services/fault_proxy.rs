//! A TCP proxy on loopback that injects faults between a client and a server — faults a
//! test cannot cause with the real programs alone (an overloaded or flaky network).
//!
//! Two modes:
//! - [`FaultProxy::start`]: the first connections each get one fault from a list, in order;
//!   everything after is forwarded untouched.
//! - [`FaultProxy::chaos`]: every HTTP/1.1 request gets its own connection (the proxy
//!   rewrites the request to `Connection: close`) and, with a given probability, one fault
//!   drawn from a seeded generator, so a campaign is repeatable.
//!
//! The target can be moved ([`FaultProxy::set_target`]), which lets a test restart the
//! server on another port behind the same address.

use std::collections::{BTreeMap, VecDeque};
use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

/// What the proxy does to one connection (or, in chaos mode, to one request).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Fault {
    /// Answers `503 Service Unavailable` and closes, without forwarding.
    Unavailable,
    /// Answers `500 Internal Server Error` and closes, without forwarding.
    ServerError,
    /// Answers `429 Too Many Requests` with `Retry-After: <seconds>` and closes.
    TooManyRequests { retry_after: u64 },
    /// Reads the request, then closes without answering (a dropped connection).
    Drop,
    /// Reads the request head, then resets the connection (RST), without forwarding.
    Reset,
    /// Waits this many milliseconds, then forwards.
    Delay { millis: u64 },
    /// Forwards the request, lets the server answer, and resets the connection instead of
    /// passing the answer on: the server did the work, the client never hears of it.
    LoseResponse,
    /// Forwards the request and passes on the answer's head and half of its body, then
    /// resets the connection.
    Truncate,
}

impl Fault {
    /// The faults chaos mode draws from.
    const CHAOS: [Fault; 8] = [
        Fault::Unavailable,
        Fault::ServerError,
        Fault::TooManyRequests { retry_after: 1 },
        Fault::Drop,
        Fault::Reset,
        Fault::Delay { millis: 700 },
        Fault::LoseResponse,
        Fault::Truncate,
    ];

    /// A name for reports (`Delay` without its figure).
    pub fn name(&self) -> &'static str {
        match self {
            Fault::Unavailable => "503",
            Fault::ServerError => "500",
            Fault::TooManyRequests { .. } => "429",
            Fault::Drop => "drop",
            Fault::Reset => "reset",
            Fault::Delay { .. } => "delay",
            Fault::LoseResponse => "lost response",
            Fault::Truncate => "truncated body",
        }
    }
}

enum Plan {
    Queue(VecDeque<Fault>),
    Chaos { rng: SplitMix64, rate: f64 },
}

impl Plan {
    /// The fault for the next connection (or request), if any.
    fn next(&mut self) -> Option<Fault> {
        match self {
            Plan::Queue(queue) => queue.pop_front(),
            Plan::Chaos { rng, rate } => {
                let roll = rng.next_f64();
                let pick = rng.next_u64() as usize % Fault::CHAOS.len();
                (roll < *rate).then(|| Fault::CHAOS[pick])
            }
        }
    }
}

struct Shared {
    target: Mutex<SocketAddr>,
    plan: Mutex<Plan>,
    chaos: bool,
    stop: AtomicBool,
    /// Requests (chaos) or connections seen, and faults injected by name.
    seen: Mutex<(usize, BTreeMap<&'static str, usize>)>,
}

pub struct FaultProxy {
    addr: SocketAddr,
    shared: Arc<Shared>,
}

impl FaultProxy {
    /// Proxies to `target`, applying `faults` to the first connections, in order.
    pub fn start(target: SocketAddr, faults: Vec<Fault>) -> FaultProxy {
        Self::spawn(target, Plan::Queue(faults.into()), false)
    }

    /// Proxies HTTP/1.1 requests to `target`, one connection each, giving each request a
    /// fault with probability `rate`, drawn from a generator seeded with `seed`.
    pub fn chaos(target: SocketAddr, seed: u64, rate: f64) -> FaultProxy {
        let plan = Plan::Chaos {
            rng: SplitMix64(seed),
            rate,
        };
        Self::spawn(target, plan, true)
    }

    fn spawn(target: SocketAddr, plan: Plan, chaos: bool) -> FaultProxy {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
        let addr = listener.local_addr().expect("an address");
        listener.set_nonblocking(true).expect("nonblocking accept");
        let shared = Arc::new(Shared {
            target: Mutex::new(target),
            plan: Mutex::new(plan),
            chaos,
            stop: AtomicBool::new(false),
            seen: Mutex::new((0, BTreeMap::new())),
        });
        let accepting = shared.clone();
        thread::spawn(move || {
            while !accepting.stop.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((client, _)) => {
                        let _ = client.set_nonblocking(false);
                        let shared = accepting.clone();
                        thread::spawn(move || shared.serve(client));
                    }
                    Err(_) => thread::sleep(Duration::from_millis(5)),
                }
            }
        });
        FaultProxy { addr, shared }
    }

    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Sends what comes next to another address (a restarted server).
    pub fn set_target(&self, target: SocketAddr) {
        *self.shared.target.lock().expect("not poisoned") = target;
    }

    /// How many faults were injected so far.
    pub fn injected(&self) -> usize {
        self.faults().values().sum()
    }

    /// The faults injected so far, by [`Fault::name`].
    pub fn faults(&self) -> BTreeMap<&'static str, usize> {
        self.shared.seen.lock().expect("not poisoned").1.clone()
    }

    /// Requests (chaos mode) or connections (list mode) seen so far.
    pub fn seen(&self) -> usize {
        self.shared.seen.lock().expect("not poisoned").0
    }
}

impl Drop for FaultProxy {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Relaxed);
    }
}

impl Shared {
    fn serve(&self, mut client: TcpStream) {
        // In chaos mode the decision is per request: read its head first.
        let head = if self.chaos {
            match read_head(&mut client) {
                Some(head) => force_close(head),
                None => return,
            }
        } else {
            Vec::new()
        };
        let fault = self.plan.lock().expect("not poisoned").next();
        {
            let mut seen = self.seen.lock().expect("not poisoned");
            seen.0 += 1;
            if let Some(f) = fault {
                *seen.1.entry(f.name()).or_default() += 1;
            }
        }
        let target = *self.target.lock().expect("not poisoned");
        match fault {
            None => forward(client, target, &head, Relay::All),
            Some(Fault::Delay { millis }) => {
                thread::sleep(Duration::from_millis(millis));
                forward(client, target, &head, Relay::All)
            }
            Some(Fault::LoseResponse) => forward(client, target, &head, Relay::Nothing),
            Some(Fault::Truncate) => forward(client, target, &head, Relay::HalfBody),
            Some(Fault::Reset) => reset(client),
            Some(fault) => answer(client, fault, !head.is_empty()),
        }
    }
}

/// Answers a fault without forwarding.
fn answer(mut client: TcpStream, fault: Fault, head_read: bool) {
    if !head_read {
        let _ = client.set_read_timeout(Some(Duration::from_millis(500)));
        let mut buffer = [0u8; 64 * 1024];
        let _ = client.read(&mut buffer);
    }
    let answer = match fault {
        Fault::Unavailable => {
            "HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
                .to_owned()
        }
        Fault::ServerError => {
            "HTTP/1.1 500 Internal Server Error\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
                .to_owned()
        }
        Fault::TooManyRequests { retry_after } => format!(
            "HTTP/1.1 429 Too Many Requests\r\nretry-after: {retry_after}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
        ),
        _ => String::new(),
    };
    let _ = client.write_all(answer.as_bytes());
    let _ = client.shutdown(Shutdown::Both);
}

/// Closes with a TCP reset (SO_LINGER 0), as a crashed peer or a middlebox would.
fn reset(client: TcpStream) {
    use std::os::fd::AsRawFd;
    let linger = libc::linger {
        l_onoff: 1,
        l_linger: 0,
    };
    // SAFETY: a valid socket descriptor and a correctly sized `linger` value.
    unsafe {
        libc::setsockopt(
            client.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_LINGER,
            (&linger as *const libc::linger).cast(),
            std::mem::size_of::<libc::linger>() as libc::socklen_t,
        );
    }
    drop(client);
}

/// How much of the server's answer reaches the client.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Relay {
    All,
    HalfBody,
    Nothing,
}

/// Forwards `client` to `target`: first `head` (what was already read of the request),
/// then both directions until the server closes.
fn forward(client: TcpStream, target: SocketAddr, head: &[u8], relay: Relay) {
    let Ok(mut server) = TcpStream::connect(target) else {
        let _ = client.shutdown(Shutdown::Both);
        return;
    };
    if server.write_all(head).is_err() {
        let _ = client.shutdown(Shutdown::Both);
        return;
    }
    let (mut c_read, mut s_write) = (
        client.try_clone().expect("clone"),
        server.try_clone().expect("clone"),
    );
    let upstream = thread::spawn(move || {
        let _ = std::io::copy(&mut c_read, &mut s_write);
        let _ = s_write.shutdown(Shutdown::Write);
    });
    let (mut s_read, mut c_write) = (server, client);
    // The reset must close the connection's last descriptor: the upstream thread's clone
    // is still reading the client, which waits for the answer and sends nothing. Shutting
    // the client's read side ends that read (and the thread) first; without it neither
    // side closed until the client's read timeout (120 s) gave up.
    let reset_after_upstream = |c_write: TcpStream, upstream: thread::JoinHandle<()>| {
        let _ = c_write.shutdown(Shutdown::Read);
        let _ = upstream.join();
        reset(c_write);
    };
    match relay {
        Relay::All => {
            let _ = std::io::copy(&mut s_read, &mut c_write);
            let _ = c_write.shutdown(Shutdown::Both);
            let _ = upstream.join();
        }
        Relay::Nothing => {
            let _ = std::io::copy(&mut s_read, &mut std::io::sink());
            reset_after_upstream(c_write, upstream);
        }
        Relay::HalfBody => {
            let mut answer = Vec::new();
            let _ = s_read.read_to_end(&mut answer);
            let end = head_end(&answer).unwrap_or(answer.len());
            let body = answer.len() - end;
            let _ = c_write.write_all(&answer[..end + body / 2]);
            reset_after_upstream(c_write, upstream);
        }
    }
}

/// Reads up to the end of an HTTP request head (and whatever of the body came with it).
fn read_head(client: &mut TcpStream) -> Option<Vec<u8>> {
    let _ = client.set_read_timeout(Some(Duration::from_secs(30)));
    let mut head = Vec::new();
    let mut buffer = [0u8; 16 * 1024];
    while head_end(&head).is_none() {
        match client.read(&mut buffer) {
            Ok(0) | Err(_) => return None,
            Ok(n) => head.extend_from_slice(&buffer[..n]),
        }
        if head.len() > 1 << 20 {
            return None;
        }
    }
    let _ = client.set_read_timeout(None);
    Some(head)
}

/// Where the head ends (after the blank line), if it has.
fn head_end(bytes: &[u8]) -> Option<usize> {
    bytes
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|i| i + 4)
}

/// Rewrites a request head so the server closes after answering: one request per connection.
fn force_close(bytes: Vec<u8>) -> Vec<u8> {
    let end = head_end(&bytes).expect("a complete head");
    let text = String::from_utf8_lossy(&bytes[..end - 4]);
    let mut out = String::new();
    for line in text.split("\r\n") {
        if line.to_ascii_lowercase().starts_with("connection:") {
            continue;
        }
        out.push_str(line);
        out.push_str("\r\n");
    }
    out.push_str("connection: close\r\n\r\n");
    let mut rewritten = out.into_bytes();
    rewritten.extend_from_slice(&bytes[end..]);
    rewritten
}

/// A small seeded generator (SplitMix64): the same seed gives the same campaign.
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `[0, bound)`.
    pub fn below(&mut self, bound: u64) -> u64 {
        self.next_u64() % bound.max(1)
    }
}
