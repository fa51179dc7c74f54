//! A TCP proxy on loopback that injects faults into the first connections it accepts, then
//! forwards everything. It stands in for an overloaded or flaky network between client and
//! server — a fault a test cannot cause with the real programs alone.

use std::collections::VecDeque;
use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

/// What the proxy does to one connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// Answers `503 Service Unavailable` and closes.
    Unavailable,
    /// Answers `429 Too Many Requests` with `Retry-After: <seconds>` and closes.
    TooManyRequests { retry_after: u64 },
    /// Reads the request, then closes without answering (a dropped connection).
    Drop,
}

pub struct FaultProxy {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    injected: Arc<AtomicUsize>,
}

impl FaultProxy {
    /// Proxies to `target`, applying `faults` to the first connections, in order.
    pub fn start(target: SocketAddr, faults: Vec<Fault>) -> FaultProxy {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
        let addr = listener.local_addr().expect("an address");
        listener.set_nonblocking(true).expect("nonblocking accept");
        let stop = Arc::new(AtomicBool::new(false));
        let injected = Arc::new(AtomicUsize::new(0));
        let queue = Arc::new(Mutex::new(VecDeque::from(faults)));
        let (stop2, injected2) = (stop.clone(), injected.clone());
        thread::spawn(move || {
            while !stop2.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((client, _)) => {
                        let _ = client.set_nonblocking(false);
                        let fault = queue.lock().expect("not poisoned").pop_front();
                        let injected = injected2.clone();
                        thread::spawn(move || match fault {
                            Some(fault) => {
                                injected.fetch_add(1, Ordering::Relaxed);
                                inject(client, fault);
                            }
                            None => forward(client, target),
                        });
                    }
                    Err(_) => thread::sleep(Duration::from_millis(5)),
                }
            }
        });
        FaultProxy {
            addr,
            stop,
            injected,
        }
    }

    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// How many faults were injected so far.
    pub fn injected(&self) -> usize {
        self.injected.load(Ordering::Relaxed)
    }
}

impl Drop for FaultProxy {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

fn inject(mut client: TcpStream, fault: Fault) {
    let _ = client.set_read_timeout(Some(Duration::from_millis(500)));
    let mut buffer = [0u8; 64 * 1024];
    let _ = client.read(&mut buffer);
    let answer = match fault {
        Fault::Unavailable => {
            "HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
                .to_owned()
        }
        Fault::TooManyRequests { retry_after } => format!(
            "HTTP/1.1 429 Too Many Requests\r\nretry-after: {retry_after}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
        ),
        Fault::Drop => String::new(),
    };
    let _ = client.write_all(answer.as_bytes());
    let _ = client.shutdown(Shutdown::Both);
}

fn forward(client: TcpStream, target: SocketAddr) {
    let Ok(server) = TcpStream::connect(target) else {
        let _ = client.shutdown(Shutdown::Both);
        return;
    };
    let (mut c_read, mut s_write) = (
        client.try_clone().expect("clone"),
        server.try_clone().expect("clone"),
    );
    let upstream = thread::spawn(move || {
        let _ = std::io::copy(&mut c_read, &mut s_write);
        let _ = s_write.shutdown(Shutdown::Write);
    });
    let (mut s_read, mut c_write) = (server, client);
    let _ = std::io::copy(&mut s_read, &mut c_write);
    let _ = c_write.shutdown(Shutdown::Write);
    let _ = upstream.join();
}
