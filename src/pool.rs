//! The one worker pool: `jobs` threads take items in order and work on them, and the calling
//! thread takes the results, as they finish ([`each`]) or in the items' order ([`ordered`]),
//! so reports are stable whatever `--jobs` is.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// Runs `work` on every item with up to `jobs` threads and gives each result to `take`, on
/// the calling thread, as it finishes. When `take` breaks, no further item is started (the
/// ones under way finish and their results are dropped).
pub fn each<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    work: impl Fn(usize, &T) -> R + Sync,
    mut take: impl FnMut(usize, R) -> ControlFlow<()>,
) {
    let next = AtomicUsize::new(0);
    let stopped = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel::<(usize, R)>();
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, items.len().max(1)) {
            let (sender, next, stopped, work) = (sender.clone(), &next, &stopped, &work);
            scope.spawn(move || {
                while !stopped.load(Ordering::Relaxed) {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(index) else {
                        break;
                    };
                    if sender.send((index, work(index, item))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for (index, result) in receiver.iter() {
            if take(index, result).is_break() {
                stopped.store(true, Ordering::Relaxed);
                break;
            }
        }
        // Dropping the receiver here makes the workers still running stop at their next send.
        drop(receiver);
    });
}

/// [`each`], with the results given to `take` in the items' order.
pub fn ordered<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    work: impl Fn(usize, &T) -> R + Sync,
    mut take: impl FnMut(usize, R) -> ControlFlow<()>,
) {
    let mut waiting: Vec<Option<R>> = std::iter::repeat_with(|| None).take(items.len()).collect();
    let mut next = 0;
    each(items, jobs, work, |index, result| {
        waiting[index] = Some(result);
        while let Some(result) = waiting.get_mut(next).and_then(Option::take) {
            take(next, result)?;
            next += 1;
        }
        ControlFlow::Continue(())
    });
}

/// [`ordered`], one level at a time in rising `level`: every item of a level has finished
/// before the first of the next starts, and `take` still gets the results in the items'
/// order (a result waits for those before it, whatever their level). `jobs` gives the
/// threads for a level of so many items. A loaded runner that must never serve a less
/// secret scenario after a more secret one, nor beside it, runs its scenarios this way.
pub fn ordered_by_level<T: Sync, R: Send, K: Ord>(
    items: &[T],
    level: impl Fn(&T) -> K,
    jobs: impl Fn(usize) -> usize,
    work: impl Fn(usize, &T) -> R + Sync,
    mut take: impl FnMut(usize, R) -> ControlFlow<()>,
) {
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by_key(|&index| level(&items[index]));
    let mut waiting: Vec<Option<R>> = std::iter::repeat_with(|| None).take(items.len()).collect();
    let mut next = 0;
    let mut stopped = false;
    for same_level in order.chunk_by(|a, b| level(&items[*a]) == level(&items[*b])) {
        each(
            same_level,
            jobs(same_level.len()),
            |_, &index| work(index, &items[index]),
            |position, result| {
                waiting[same_level[position]] = Some(result);
                while let Some(result) = waiting.get_mut(next).and_then(Option::take) {
                    if take(next, result).is_break() {
                        stopped = true;
                        return ControlFlow::Break(());
                    }
                    next += 1;
                }
                ControlFlow::Continue(())
            },
        );
        if stopped {
            return;
        }
    }
}

/// [`ordered`], collecting every result.
pub fn map<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    work: impl Fn(usize, &T) -> R + Sync,
) -> Vec<R> {
    let mut results = Vec::with_capacity(items.len());
    ordered(items, jobs, work, |_, result| {
        results.push(result);
        ControlFlow::Continue(())
    });
    results
}

/// `aside` run on a thread of its own while `here` runs on this one, and both results: two
/// waits (a program's answer, files read) overlapped. A panic in `aside` is raised here.
pub fn beside<A: Send, B>(aside: impl FnOnce() -> A + Send, here: impl FnOnce() -> B) -> (A, B) {
    std::thread::scope(|scope| {
        let aside = scope.spawn(aside);
        let here = here();
        let aside = aside
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (aside, here)
    })
}

/// The number of threads to use when the user does not say: one per core.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn beside_runs_both_at_once_and_raises_the_asides_panic_here() {
        // Each waits for the other to have started: run one after the other, neither ends.
        let started = std::sync::Barrier::new(2);
        let (a, b) = beside(
            || {
                started.wait();
                1
            },
            || {
                started.wait();
                "here"
            },
        );
        assert_eq!((a, b), (1, "here"));
        let raised = std::panic::catch_unwind(|| beside(|| panic!("aside failed"), || 2));
        assert!(raised.is_err());
    }

    #[test]
    fn results_come_in_order_whatever_finishes_first() {
        let items: Vec<u64> = (0..20).collect();
        for jobs in [1, 2, 4, 7] {
            let got = map(&items, jobs, |_, &n| {
                // Early items take longest, so they finish last.
                std::thread::sleep(Duration::from_millis(20 - n));
                n * 10
            });
            assert_eq!(got, items.iter().map(|n| n * 10).collect::<Vec<_>>());
        }
    }

    #[test]
    fn a_break_stops_new_work() {
        let items: Vec<usize> = (0..1000).collect();
        let started = AtomicUsize::new(0);
        let mut taken = Vec::new();
        ordered(
            &items,
            2,
            |i, _| {
                started.fetch_add(1, Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(1));
                i
            },
            |i, r| {
                taken.push(r);
                if i == 4 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            },
        );
        assert_eq!(taken, vec![0, 1, 2, 3, 4]);
        assert!(started.load(Ordering::Relaxed) < 100);
    }

    #[test]
    fn levels_run_one_after_another_and_results_come_in_order() {
        // Items are (level, id); a level may start only once every lower one has ended.
        let items: Vec<(u8, usize)> = [2, 0, 1, 0, 2, 1, 0, 2, 0, 1]
            .into_iter()
            .enumerate()
            .map(|(id, level)| (level, id))
            .collect();
        for jobs in [1, 2, 3] {
            let ended: Vec<AtomicUsize> = (0..3).map(|_| AtomicUsize::new(0)).collect();
            let count = |level: u8| items.iter().filter(|(l, _)| *l == level).count();
            let mut taken = Vec::new();
            ordered_by_level(
                &items,
                |&(level, _)| level,
                |_| jobs,
                |_, &(level, id)| {
                    for below in 0..level {
                        assert_eq!(
                            ended[below as usize].load(Ordering::SeqCst),
                            count(below),
                            "item {id} of level {level} started before level {below} ended"
                        );
                    }
                    std::thread::sleep(Duration::from_millis(2));
                    ended[level as usize].fetch_add(1, Ordering::SeqCst);
                    id * 10
                },
                |index, result| {
                    taken.push((index, result));
                    ControlFlow::Continue(())
                },
            );
            let expected: Vec<(usize, usize)> = (0..items.len()).map(|i| (i, i * 10)).collect();
            assert_eq!(taken, expected, "jobs {jobs}");
        }
    }

    #[test]
    fn a_break_stops_the_levels_after_it() {
        let items: Vec<u8> = vec![1, 0, 2, 2, 0];
        let started: Vec<AtomicUsize> = (0..3).map(|_| AtomicUsize::new(0)).collect();
        let mut taken = Vec::new();
        ordered_by_level(
            &items,
            |&level| level,
            |_| 2,
            |index, &level| {
                started[level as usize].fetch_add(1, Ordering::SeqCst);
                index
            },
            |index, _| {
                taken.push(index);
                ControlFlow::Break(())
            },
        );
        // Item 0, of level 1, waits for level 0 (items 1 and 4), then breaks: level 2 never
        // starts.
        assert_eq!(taken, vec![0]);
        assert_eq!(started[0].load(Ordering::SeqCst), 2);
        assert_eq!(started[1].load(Ordering::SeqCst), 1);
        assert_eq!(started[2].load(Ordering::SeqCst), 0);
    }

    #[test]
    fn an_empty_list_runs_nothing() {
        assert!(map(&[] as &[u8], 4, |_, _| 1).is_empty());
    }
}
