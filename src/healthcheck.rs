//! `sudokud healthcheck`: asks the local server's `/healthz` and exits 0 when it answers 200.
//!
//! Distroless images have no curl, so the binary checks itself. A plain HTTP/1.1 request over
//! `std::net` is all it takes; no HTTP client dependency for one GET.

use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream};
use std::time::Duration;

/// Asks `http://addr/healthz`. An unspecified address (the server's `0.0.0.0` or `[::]`)
/// means this host, so it is replaced by loopback.
pub(crate) fn check(addr: SocketAddr, timeout: Duration) -> Result<(), String> {
    let addr = match addr.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => SocketAddr::new(Ipv4Addr::LOCALHOST.into(), addr.port()),
        IpAddr::V6(ip) if ip.is_unspecified() => SocketAddr::new(Ipv6Addr::LOCALHOST.into(), addr.port()),
        _ => addr,
    };
    let mut stream =
        TcpStream::connect_timeout(&addr, timeout).map_err(|error| format!("connect to {addr}: {error}"))?;
    stream
        .set_read_timeout(Some(timeout))
        .and_then(|()| stream.set_write_timeout(Some(timeout)))
        .map_err(|error| error.to_string())?;
    write!(stream, "GET /healthz HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n")
        .map_err(|error| format!("send to {addr}: {error}"))?;
    let mut response = Vec::new();
    stream.take(64 * 1024).read_to_end(&mut response).map_err(|error| format!("read from {addr}: {error}"))?;
    let status_line = response.split(|&byte| byte == b'\n').next().unwrap_or_default();
    let status_line = String::from_utf8_lossy(status_line);
    if status_line.split_whitespace().nth(1) == Some("200") {
        Ok(())
    } else {
        Err(format!("{addr} answered {:?}", status_line.trim_end()))
    }
}
