//! The control channel of a loaded runner: datagrams on a `SOCK_SEQPACKET` Unix socket pair,
//! descriptors passed with `SCM_RIGHTS`, and the sender of each message told by the kernel
//! (`SCM_CREDENTIALS`), so the grader never takes a process's word for who it is.

use std::io::{self, IoSlice, IoSliceMut};
use std::mem::MaybeUninit;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::time::Instant;

use rustix::net::{
    recvmsg, sendmsg, socketpair, sockopt, AddressFamily, RecvAncillaryBuffer,
    RecvAncillaryMessage, RecvFlags, SendAncillaryBuffer, SendAncillaryMessage, SendFlags,
    SocketFlags, SocketType,
};
use rustix::process::Pid;

use crate::execution::sys::{poll, Interest};

/// The longest message either side sends.
const MESSAGE: usize = 512;

/// A message and the process that sent it, as the kernel saw it.
#[derive(Debug)]
pub(crate) struct Message {
    pub bytes: Vec<u8>,
    pub pid: Pid,
    pub uid: u32,
}

/// Why no message came.
#[derive(Debug)]
pub(crate) enum Silence {
    /// The other side closed its end (it exited).
    Closed,
    /// Nothing by the deadline, or `watch` fired first.
    TimedOut,
    Failed(io::Error),
}

/// A socket pair: the grader's end (told who sends each message) and the other end.
pub(crate) fn pair() -> io::Result<(OwnedFd, OwnedFd)> {
    let (grader, other) = socketpair(
        AddressFamily::UNIX,
        SocketType::SEQPACKET,
        SocketFlags::CLOEXEC,
        None,
    )?;
    sockopt::set_socket_passcred(&grader, true)?;
    Ok((grader, other))
}

/// Sends `bytes` with copies of `fds`.
pub(crate) fn send(socket: impl AsFd, bytes: &[u8], fds: &[BorrowedFd<'_>]) -> io::Result<()> {
    let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(4))];
    let mut control = SendAncillaryBuffer::new(&mut space);
    if !fds.is_empty() && !control.push(SendAncillaryMessage::ScmRights(fds)) {
        return Err(io::Error::other("too many descriptors for one message"));
    }
    sendmsg(
        socket,
        &[IoSlice::new(bytes)],
        &mut control,
        SendFlags::NOSIGNAL,
    )?;
    Ok(())
}

/// The next message by `deadline`; gives up early when `watch` (a pidfd) becomes readable
/// and no message is waiting. Descriptors sent along are closed unread.
pub(crate) fn receive(
    socket: BorrowedFd<'_>,
    deadline: Instant,
    watch: Option<BorrowedFd<'_>>,
) -> Result<Message, Silence> {
    loop {
        let now = Instant::now();
        if now >= deadline {
            return Err(Silence::TimedOut);
        }
        let ready = poll(
            &[
                Some((socket, Interest::Readable)),
                watch.map(|w| (w, Interest::Readable)),
            ],
            deadline - now,
        );
        if ready[0] {
            return read_message(socket);
        }
        if ready[1] {
            // The process ended; a message it sent before may still be queued.
            return match read_message(socket) {
                Err(Silence::TimedOut) => Err(Silence::Closed),
                other => other,
            };
        }
    }
}

fn read_message(socket: BorrowedFd<'_>) -> Result<Message, Silence> {
    let mut bytes = [0u8; MESSAGE];
    let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmCredentials(1), ScmRights(4))];
    let mut control = RecvAncillaryBuffer::new(&mut space);
    let received = match recvmsg(
        socket,
        &mut [IoSliceMut::new(&mut bytes)],
        &mut control,
        RecvFlags::DONTWAIT | RecvFlags::CMSG_CLOEXEC,
    ) {
        Ok(received) => received,
        Err(rustix::io::Errno::AGAIN) => return Err(Silence::TimedOut),
        Err(e) => return Err(Silence::Failed(e.into())),
    };
    if received.bytes == 0 {
        return Err(Silence::Closed);
    }
    let mut sender = None;
    for message in control.drain() {
        if let RecvAncillaryMessage::ScmCredentials(credentials) = message {
            sender = Some((credentials.pid, credentials.uid.as_raw()));
        }
    }
    let (pid, uid) = sender.ok_or_else(|| {
        Silence::Failed(io::Error::other(
            "a message came without its sender's credentials",
        ))
    })?;
    Ok(Message {
        bytes: bytes[..received.bytes.min(MESSAGE)].to_vec(),
        pid,
        uid,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn the_kernel_names_the_sender_and_descriptors_travel() {
        let (grader, other) = pair().unwrap();
        let (read, write) = rustix::pipe::pipe().unwrap();
        send(&other, b"hello", &[read.as_fd()]).unwrap();
        let message = receive(
            grader.as_fd(),
            Instant::now() + Duration::from_secs(5),
            None,
        )
        .unwrap();
        assert_eq!(message.bytes, b"hello");
        assert_eq!(
            message.pid.as_raw_nonzero().get() as u32,
            std::process::id()
        );
        drop(write);
        drop(other);
        assert!(matches!(
            receive(
                grader.as_fd(),
                Instant::now() + Duration::from_secs(5),
                None
            ),
            Err(Silence::Closed)
        ));
    }

    #[test]
    fn silence_ends_at_the_deadline() {
        let (grader, _other) = pair().unwrap();
        let started = Instant::now();
        let silence = receive(grader.as_fd(), started + Duration::from_millis(50), None);
        assert!(matches!(silence, Err(Silence::TimedOut)));
    }
}
