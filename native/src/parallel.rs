//! Work spread over threads within one call of the core, the caller's thread among them: the
//! items taken in turn from one queue, the answers in the items' order, each the same as it
//! would be alone (the work of one item reads nothing another writes). A panic in a thread
//! reaches the caller's thread when the helpers are done (the bindings turn it into an
//! exception).
//!
//! The helpers run on a pool of threads kept for the program (rayon's), not on threads started
//! for each call: starting them cost more CPU than a small call's work (a cached tank pick-up
//! makes some ten such calls). A process forked from one that has the pool gets a pool of its
//! own (the fork has none of its parent's threads).

use std::sync::{Arc, Mutex, PoisonError};

use rayon::{ThreadPool, ThreadPoolBuilder};

use crate::limits::MAX_THREADS;

/// `f` of each of `items` on up to `threads` threads (the caller's one of them; 0 or 1: all on
/// the caller's; at most [`MAX_THREADS`] and one an item), each thread with scratch state of its
/// own (`S::default()`, kept from item to item); the answers in the items' order.
pub fn each<T: Send, R: Send, S: Default>(items: Vec<T>, threads: usize,
                                          f: impl Fn(T, &mut S) -> R + Sync) -> Vec<R> {
    let n = items.len();
    let threads = threads.clamp(1, MAX_THREADS).min(n.max(1));
    if threads == 1 {
        let mut s = S::default();
        return items.into_iter().map(|x| f(x, &mut s)).collect();
    }
    let queue = Mutex::new(items.into_iter().enumerate());
    let out: Mutex<Vec<Option<R>>> = Mutex::new((0..n).map(|_| None).collect());
    let work = || {
        let mut s = S::default();
        loop {
            let next = queue.lock().unwrap_or_else(PoisonError::into_inner).next();
            let Some((k, x)) = next else { break };
            let r = f(x, &mut s);
            out.lock().unwrap_or_else(PoisonError::into_inner)[k] = Some(r);
        }
    };
    // the helpers on the pool's threads, the caller working beside them
    let Some(pool) = pool() else {
        std::thread::scope(|scope| {
            for _ in 1..threads {
                scope.spawn(work);
            }
            work();
        });
        return answers(out);
    };
    pool.in_place_scope(|scope| {
        for _ in 1..threads {
            scope.spawn(|_| work());
        }
        work();
    });
    answers(out)
}

/// The answers [`each`] collected, in the items' order.
fn answers<R>(out: Mutex<Vec<Option<R>>>) -> Vec<R> {
    out.into_inner()
        .unwrap_or_else(PoisonError::into_inner)
        .into_iter()
        .map(|r| r.expect("each item is answered once the helpers are done"))
        .collect()
}

/// The helpers' pool of this process (made when first asked; again in a forked process);
/// `None` where no pool can be made (threads started for the call instead).
fn pool() -> Option<Arc<ThreadPool>> {
    static POOL: Mutex<Option<(u32, Arc<ThreadPool>)>> = Mutex::new(None);
    let pid = std::process::id();
    let mut kept = POOL.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((at, p)) = kept.as_ref() {
        if *at == pid {
            return Some(Arc::clone(p));
        }
    }
    // a forked process: its parent's pool is let be, not dropped (dropping it would signal
    // threads this process does not have, through locks the fork copied as they were)
    if let Some(parents) = kept.take() {
        std::mem::forget(parents);
    }
    // (one thread fewer than the processors: the caller works too)
    let n = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(2, MAX_THREADS) - 1;
    let p = Arc::new(ThreadPoolBuilder::new().num_threads(n)
        .thread_name(|k| format!("tabletop-core-{k}")).build().ok()?);
    *kept = Some((pid, Arc::clone(&p)));
    Some(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answers_are_in_the_items_order_whatever_the_threads() {
        let items: Vec<u64> = (0..1000).collect();
        let alone: Vec<u64> = items.iter().map(|x| x * x).collect();
        for threads in [0, 1, 2, 3, 8, 64] {
            let got = each(items.clone(), threads, |x, seen: &mut usize| {
                *seen += 1;
                x * x
            });
            assert_eq!(got, alone);
        }
        assert!(each(Vec::<u8>::new(), 4, |x, _: &mut ()| x).is_empty());
    }

    #[test]
    fn each_thread_keeps_its_own_scratch() {
        // every item sees scratch no other thread touches: its count only grows
        let got = each((0..200).collect::<Vec<u32>>(), 4, |_, s: &mut Vec<u32>| {
            s.push(s.len() as u32);
            s.iter().enumerate().all(|(k, &v)| v == k as u32)
        });
        assert!(got.into_iter().all(|ok| ok));
    }

    #[test]
    #[should_panic]
    fn a_panic_in_a_thread_reaches_the_caller() {
        each((0..16).collect::<Vec<u32>>(), 4, |x, _: &mut ()| {
            assert!(x != 11, "eleven");
            x
        });
    }
}
