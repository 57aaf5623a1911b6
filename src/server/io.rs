//! The socket under every connection, with the two guards that belong to bytes rather than
//! requests: a send timeout and a lingering close.
//!
//! **Send timeout.** A client that stops reading fills the socket's send buffer, and every
//! write then waits. Nothing above the socket can tell such a connection from a slow one, so a
//! write that cannot make progress for the send timeout fails with `TimedOut`, which ends the
//! connection (nginx's `send_timeout`).
//!
//! **Lingering close.** A server that answers before it has read the whole request (413 for an
//! oversized body, 408 for a slow upload, 415 before reading) and then closes its socket while
//! request bytes are still arriving makes the kernel send a reset, which destroys the answer
//! in flight: clients that write the whole body before reading (Python's `http.client`,
//! Node's `fetch`) see `EPIPE` instead of the 413. So closing is done as nginx's lingering
//! close does it: send FIN after the answer, then keep reading and discarding what the client
//! still sends, until it closes, for at most [`LINGER_TIME`] and [`LINGER_BYTES`].
//!
//! **Parser rejections.** hyper's bare answer to a request it cannot parse is replaced by a
//! problem document on its way out (`rejection.rs`).

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::{Instant, Sleep};

/// The longest a closing connection keeps reading what the client still sends.
const LINGER_TIME: Duration = Duration::from_secs(5);

/// The most a closing connection reads and discards: enough for any body a client may send
/// before it reads its 413, few enough that lingering is never a way to keep a CPU busy.
const LINGER_BYTES: usize = 64 << 20;

/// A connection's socket with a send timeout and a lingering close.
pub(super) struct GuardedIo {
    stream: TcpStream,
    send_timeout: Duration,
    /// Armed while a write or flush waits, and while lingering; allocated on first use, since
    /// most connections never wait to write.
    timer: Option<Pin<Box<Sleep>>>,
    /// Whether `timer` counts down for the current wait (a write, a flush, or the linger).
    timing: bool,
    closing: Closing,
    /// A replacement answer already reported written to hyper, and how much of it is sent.
    unsent: Vec<u8>,
    sent: usize,
}

/// Where a connection stands in its close.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Closing {
    Open,
    /// FIN sent; reading and discarding, with this many bytes discarded so far.
    Lingering(usize),
    Closed,
}

impl GuardedIo {
    pub(super) fn new(stream: TcpStream, send_timeout: Duration) -> GuardedIo {
        GuardedIo {
            stream,
            send_timeout,
            timer: None,
            timing: false,
            closing: Closing::Open,
            unsent: Vec::new(),
            sent: 0,
        }
    }

    /// Starts counting `limit` down unless it already counts for this wait; ready once it ran out.
    fn poll_expired(&mut self, cx: &mut Context<'_>, limit: Duration) -> Poll<()> {
        let deadline = Instant::now() + limit;
        let timer = self.timer.get_or_insert_with(|| Box::pin(tokio::time::sleep_until(deadline)));
        if !self.timing {
            timer.as_mut().reset(deadline);
            self.timing = true;
        }
        timer.as_mut().poll(cx)
    }

    /// What a write or flush that returned `poll` means under the send timeout.
    fn under_send_timeout<T>(&mut self, cx: &mut Context<'_>, poll: Poll<io::Result<T>>) -> Poll<io::Result<T>> {
        if poll.is_ready() {
            self.timing = false;
            return poll;
        }
        let send_timeout = self.send_timeout;
        match self.poll_expired(cx, send_timeout) {
            Poll::Ready(()) => {
                self.timing = false;
                Poll::Ready(Err(io::Error::new(io::ErrorKind::TimedOut, "the client stopped reading")))
            }
            Poll::Pending => Poll::Pending,
        }
    }

    /// Sends what is left of a replacement answer.
    fn poll_unsent(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.sent < self.unsent.len() {
            let poll = Pin::new(&mut self.stream).poll_write(cx, &self.unsent[self.sent..]);
            self.sent += ready!(self.under_send_timeout(cx, poll))?;
        }
        Poll::Ready(Ok(()))
    }

    /// Takes `written` as written when it is one of hyper's canned rejections, and sends its
    /// replacement instead.
    fn poll_rewritten(&mut self, cx: &mut Context<'_>, written: &[u8]) -> Option<Poll<io::Result<usize>>> {
        let replacement = super::rejection::rewrite(written)?;
        self.unsent = replacement;
        self.sent = 0;
        // hyper flushes next; what does not go out now goes out then.
        Some(match self.poll_unsent(cx) {
            Poll::Ready(Err(error)) => Poll::Ready(Err(error)),
            _ => Poll::Ready(Ok(written.len())),
        })
    }

    /// Reads and discards until the client closes, errs, or the linger's time or bytes run out.
    fn poll_linger(&mut self, cx: &mut Context<'_>) -> Poll<()> {
        let mut scratch = [0u8; 8192];
        while let Closing::Lingering(discarded) = self.closing {
            let mut buf = ReadBuf::new(&mut scratch);
            match Pin::new(&mut self.stream).poll_read(cx, &mut buf) {
                Poll::Ready(Ok(())) if !buf.filled().is_empty() && discarded < LINGER_BYTES => {
                    self.closing = Closing::Lingering(discarded + buf.filled().len());
                }
                Poll::Ready(_) => self.closing = Closing::Closed,
                Poll::Pending => {
                    ready!(self.poll_expired(cx, LINGER_TIME));
                    self.closing = Closing::Closed;
                }
            }
        }
        self.timing = false;
        Poll::Ready(())
    }
}

impl AsyncRead for GuardedIo {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for GuardedIo {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        ready!(self.poll_unsent(cx))?;
        if super::rejection::may_be_canned(buf)
            && let Some(poll) = self.poll_rewritten(cx, buf)
        {
            return poll;
        }
        let poll = Pin::new(&mut self.stream).poll_write(cx, buf);
        self.under_send_timeout(cx, poll)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        ready!(self.poll_unsent(cx))?;
        // Only a write as small as a canned answer is joined and looked at.
        if bufs.iter().find(|buf| !buf.is_empty()).is_some_and(|first| super::rejection::may_be_canned(first))
            && bufs.iter().map(|buf| buf.len()).sum::<usize>() <= super::rejection::MAX_CANNED_LEN
        {
            let joined: Vec<u8> = bufs.iter().flat_map(|buf| buf.iter().copied()).collect();
            if let Some(poll) = self.poll_rewritten(cx, &joined) {
                return poll;
            }
        }
        let poll = Pin::new(&mut self.stream).poll_write_vectored(cx, bufs);
        self.under_send_timeout(cx, poll)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_unsent(cx))?;
        let poll = Pin::new(&mut self.stream).poll_flush(cx);
        self.under_send_timeout(cx, poll)
    }

    /// Sends FIN, then lingers (see the module documentation). Always succeeds once the FIN is
    /// out: what the client does afterwards cannot fail the close.
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if self.closing == Closing::Open {
            ready!(self.poll_unsent(cx))?;
            let poll = Pin::new(&mut self.stream).poll_shutdown(cx);
            ready!(self.as_mut().under_send_timeout(cx, poll))?;
            self.closing = Closing::Lingering(0);
        }
        ready!(self.poll_linger(cx));
        Poll::Ready(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpListener;

    async fn pair(send_timeout: Duration) -> (GuardedIo, TcpStream) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let client = TcpStream::connect(listener.local_addr().unwrap()).await.unwrap();
        let (server, _) = listener.accept().await.unwrap();
        (GuardedIo::new(server, send_timeout), client)
    }

    #[tokio::test]
    async fn a_write_to_a_client_that_never_reads_times_out() {
        let (mut server, _client) = pair(Duration::from_millis(100)).await;
        let chunk = vec![0u8; 1 << 16];
        let error = loop {
            if let Err(error) = server.write_all(&chunk).await {
                break error;
            }
        };
        assert_eq!(error.kind(), io::ErrorKind::TimedOut);
    }

    #[tokio::test]
    async fn closing_reads_what_the_client_still_sends_so_the_answer_arrives() {
        let (mut server, mut client) = pair(Duration::from_secs(5)).await;
        server.write_all(b"answer").await.unwrap();
        let closing = tokio::spawn(async move { server.shutdown().await });
        // The client sends far more than the socket buffers hold before it reads anything:
        // without the linger the server's close would reset the connection.
        client.write_all(&vec![b'x'; 8 << 20]).await.unwrap();
        let mut answer = Vec::new();
        client.read_to_end(&mut answer).await.unwrap();
        assert_eq!(answer, b"answer");
        drop(client);
        closing.await.unwrap().unwrap();
    }

    #[tokio::test(start_paused = true)]
    async fn the_linger_ends_after_its_time_even_if_the_client_never_closes() {
        let (mut server, _client) = pair(Duration::from_secs(5)).await;
        let started = Instant::now();
        server.shutdown().await.unwrap();
        assert!(started.elapsed() >= LINGER_TIME);
    }
}
