//! A set of dynamic-programming states that needs no allocation.

/// The reachable states of a small dynamic program, a bit each: on the
/// stack up to [`StateSet::STACK_BITS`] states (every preset's going-out
/// tests fit), on the heap beyond (house rules asking for many canastas).
/// The going-out tests run for many candidate actions of every decision,
/// so they must not allocate.
pub(crate) struct StateSet {
    len: usize,
    words: SetWords,
}

// The large variant is the point: it lives on the stack, for a call.
#[allow(clippy::large_enum_variant)]
enum SetWords {
    Stack([u64; StateSet::STACK_WORDS]),
    Heap(Vec<u64>),
}

impl StateSet {
    const STACK_WORDS: usize = 64;
    pub(crate) const STACK_BITS: usize = Self::STACK_WORDS * 64;

    /// An empty set of `len` states.
    pub(crate) fn new(len: usize) -> StateSet {
        let words = if len <= Self::STACK_BITS {
            SetWords::Stack([0; Self::STACK_WORDS])
        } else {
            SetWords::Heap(vec![0; len.div_ceil(64)])
        };
        StateSet { len, words }
    }

    fn words(&self) -> &[u64] {
        match &self.words {
            SetWords::Stack(w) => &w[..self.len.div_ceil(64)],
            SetWords::Heap(w) => w,
        }
    }

    fn words_mut(&mut self) -> &mut [u64] {
        let n = self.len.div_ceil(64);
        match &mut self.words {
            SetWords::Stack(w) => &mut w[..n],
            SetWords::Heap(w) => w,
        }
    }

    pub(crate) fn get(&self, i: usize) -> bool {
        debug_assert!(i < self.len);
        self.words()[i / 64] >> (i % 64) & 1 == 1
    }

    pub(crate) fn set(&mut self, i: usize) {
        debug_assert!(i < self.len);
        self.words_mut()[i / 64] |= 1 << (i % 64);
    }

    pub(crate) fn clear(&mut self) {
        self.words_mut().fill(0);
    }
}
