//! The HTTP listener: HTTP/1.1 connections on hyper, bounded (`[server]` in the
//! configuration, see docs/server.md "Limits").
//!
//! - At most `max_connections` connections are open at once; more wait in the kernel's
//!   listen backlog until one closes (not reset: a burst of a client's parallel uploads
//!   is served, not refused), so that the process never runs out of file descriptors and
//!   the connections it has keep working.
//! - A connection must send a whole request head within `header_read_timeout` of the
//!   server starting to wait for it: when it opens, and again after each answer on a
//!   kept-alive connection. So half a request head, a connection that never sends
//!   anything, and an idle kept-alive connection are all closed after that time.
//! - A stop (the `shutdown` future) closes the listener, lets the requests under way
//!   finish, closes idle connections, and returns once every connection is closed.
//!
//! A request body is bounded where it is read (uploads: [`crate::routes`]).

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};

/// The bounds of the listener.
#[derive(Debug, Clone, Copy)]
pub struct ConnectionLimits {
    /// Connections open at once.
    pub max_connections: usize,
    /// Time to send a request head (the idle keep-alive timeout too).
    pub header_read_timeout: Duration,
}

/// Serves `router` on `listener` until `shutdown` completes, then waits for the open
/// connections to finish their requests.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()>,
) {
    let permits = Arc::new(Semaphore::new(limits.max_connections));
    // Tells the connections to finish; each holds a receiver until it closes, so the
    // sender's `closed()` is when the last one is gone.
    let (stop, stopping) = watch::channel(false);
    tokio::pin!(shutdown);
    loop {
        // A free slot first: while every slot is taken, new connections wait in the
        // kernel's listen backlog (they are not reset), and are accepted as slots free up
        // (an idle or silent connection frees its slot after `header_read_timeout`).
        let permit = tokio::select! {
            permit = permits.clone().acquire_owned() => match permit {
                Ok(permit) => permit,
                Err(_) => break,
            },
            () = &mut shutdown => break,
        };
        if permits.available_permits() == 0 {
            tracing::debug!(
                max_connections = limits.max_connections,
                "every connection slot is taken: new connections wait ([server] max_connections)"
            );
        }
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of file descriptors (another part of the process holds them),
                    // or a connection that was reset before it was accepted: wait a
                    // little rather than spin, and go on.
                    tracing::warn!(error = %error, "cannot accept a connection");
                    drop(permit);
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(router.clone());
        let connection = http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(limits.header_read_timeout)
            .keep_alive(true)
            .serve_connection(TokioIo::new(stream), service);
        let mut stopping = stopping.clone();
        tokio::spawn(async move {
            tokio::pin!(connection);
            let ended = tokio::select! {
                ended = connection.as_mut() => ended,
                () = async { drop(stopping.wait_for(|stop| *stop).await) } => {
                    // Finish the request under way, then close (at once when idle).
                    connection.as_mut().graceful_shutdown();
                    connection.await
                }
            };
            if let Err(error) = ended {
                tracing::debug!(peer = %peer, error = %error, "connection ended with an error");
            }
            drop(permit);
        });
    }
    drop(listener);
    drop(stopping);
    let _ = stop.send(true);
    stop.closed().await;
}
