/*!
The signals that stop npuzzle, caught in this one place: Ctrl-C (SIGINT),
SIGTERM (job runners: Slurm at a time limit, `timeout`, GNU parallel) and
SIGHUP (a closed terminal).

Until a command asks for a gentle stop, a signal ends the process as it
would without a handler, once the temporary files of the files being
written are removed ([`npuzzle::files::abandon_temporaries`]): a `generate
--out` or a table build stopped halfway leaves nothing beside its target.
Once a command has asked ([`interrupt_flag`]), the signals set the flag its
searches watch instead. A signal ignored when the process started
(`nohup`'s SIGHUP, a shell's SIGINT for a job in the background) stays
ignored.
*/

use crate::exit::Exit;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// The flag of [`interrupt_flag`], once a command asked for it.
static GENTLE: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// A flag set by the first Ctrl-C, so a search stops and still reports; a
/// second Ctrl-C exits at once. SIGTERM and SIGHUP set the flag too, every
/// time and never more: job runners stop a task with SIGTERM (Slurm at a
/// time limit or on preemption, `timeout`, GNU parallel, which repeats it
/// within 200 ms), and a batch so stopped must still save its long searches
/// where they stand; their SIGKILL is the hard stop.
pub fn interrupt_flag() -> Arc<AtomicBool> {
    Arc::clone(GENTLE.get_or_init(|| Arc::new(AtomicBool::new(false))))
}

/// Starts catching the signals, for the rest of the process.
pub fn catch() {
    platform::catch();
}

/// What a caught signal does; `ctrl_c` tells SIGINT from the others.
fn on_signal(ctrl_c: bool, die: impl FnOnce()) {
    let Some(flag) = GENTLE.get() else {
        npuzzle::files::abandon_temporaries();
        die();
        Exit::Interrupted.now();
    };
    if flag.swap(true, Ordering::Relaxed) && ctrl_c {
        npuzzle::files::abandon_temporaries();
        Exit::Interrupted.now();
    }
}

#[cfg(unix)]
mod platform {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    use signal_hook::iterator::Signals;
    use std::ffi::c_int;

    pub fn catch() {
        let caught: Vec<c_int> = [SIGINT, SIGTERM, SIGHUP].into_iter().filter(|&s| !ignored(s)).collect();
        // Failing to catch them loses the gentle stop and the clean-up, not
        // the stop itself.
        let Ok(mut signals) = Signals::new(&caught) else {
            return;
        };
        let _ = std::thread::Builder::new().name("signals".to_owned()).spawn(move || {
            for signal in signals.forever() {
                super::on_signal(signal == SIGINT, || {
                    let _ = signal_hook::low_level::emulate_default_handler(signal);
                });
            }
        });
    }

    /// Whether `signal` is ignored, as the process inherited it.
    fn ignored(signal: c_int) -> bool {
        let mut action = std::mem::MaybeUninit::<libc::sigaction>::zeroed();
        // SAFETY: with no new action, sigaction only writes the current one
        // into `action`, which is large enough; it is read only on success.
        unsafe {
            libc::sigaction(signal, std::ptr::null(), action.as_mut_ptr()) == 0
                && action.assume_init().sa_sigaction == libc::SIG_IGN
        }
    }
}

#[cfg(not(unix))]
mod platform {
    pub fn catch() {
        let _ = ctrlc::set_handler(|| super::on_signal(true, || {}));
    }
}
