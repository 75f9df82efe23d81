package dev.basalt.optimizer.plan;

import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A set of variable slots ({@link VarTable} numbers: small, dense, non-negative) as a bitset. The
 * join-group compiler tests and merges such sets for every candidate operand at every step of its
 * greedy ordering; as a {@code HashSet<Integer>} that was a node per element and a hash probe per
 * test. Iterates in ascending order. Operations between two slot sets work a word at a time; with
 * any other collection they fall back to element by element.
 * Not thread-safe: a working set of the one thread compiling a query.
 */
final class SlotSet extends AbstractSet<Integer> {
    private long[] words;

    SlotSet() {
        words = new long[1];
    }

    /** A set with the elements of {@code slots} (all non-negative). */
    SlotSet(Collection<Integer> slots) {
        if (slots instanceof SlotSet s) {
            words = s.words.clone();
        } else {
            words = new long[1];
            addAll(slots);
        }
    }

    @Override
    public boolean contains(Object o) {
        return o instanceof Integer i && has(i);
    }

    private boolean has(int slot) {
        int w = slot >>> 6;
        return slot >= 0 && w < words.length && (words[w] & 1L << slot) != 0;
    }

    @Override
    public boolean add(Integer slot) {
        if (slot < 0) {
            throw new IllegalArgumentException("a variable slot is never negative: " + slot);
        }
        int w = slot >>> 6;
        if (w >= words.length) {
            words = Arrays.copyOf(words, Math.max(w + 1, words.length * 2));
        }
        long before = words[w];
        words[w] |= 1L << slot;
        return words[w] != before;
    }

    @Override
    public boolean remove(Object o) {
        if (!contains(o)) {
            return false;
        }
        int slot = (Integer) o;
        words[slot >>> 6] &= ~(1L << slot);
        return true;
    }

    @Override
    public boolean containsAll(Collection<?> c) {
        if (c instanceof SlotSet s) {
            for (int w = 0; w < s.words.length; w++) {
                long mine = w < words.length ? words[w] : 0;
                if ((s.words[w] & ~mine) != 0) {
                    return false;
                }
            }
            return true;
        }
        return super.containsAll(c);
    }

    @Override
    public boolean addAll(Collection<? extends Integer> c) {
        if (c instanceof SlotSet s) {
            if (s.words.length > words.length) {
                words = Arrays.copyOf(words, s.words.length);
            }
            boolean changed = false;
            for (int w = 0; w < s.words.length; w++) {
                long before = words[w];
                words[w] |= s.words[w];
                changed |= words[w] != before;
            }
            return changed;
        }
        boolean changed = false;
        for (Integer slot : c) {
            changed |= add(slot);
        }
        return changed;
    }

    @Override
    public boolean retainAll(Collection<?> c) {
        if (c instanceof SlotSet s) {
            boolean changed = false;
            for (int w = 0; w < words.length; w++) {
                long before = words[w];
                words[w] &= w < s.words.length ? s.words[w] : 0;
                changed |= words[w] != before;
            }
            return changed;
        }
        return super.retainAll(c);
    }

    /** True if the two sets share a slot. */
    boolean intersects(SlotSet other) {
        int n = Math.min(words.length, other.words.length);
        for (int w = 0; w < n; w++) {
            if ((words[w] & other.words[w]) != 0) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void clear() {
        Arrays.fill(words, 0);
    }

    @Override
    public int size() {
        int n = 0;
        for (long w : words) {
            n += Long.bitCount(w);
        }
        return n;
    }

    @Override
    public boolean isEmpty() {
        for (long w : words) {
            if (w != 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public Iterator<Integer> iterator() {
        return new Iterator<>() {
            private int next = nextFrom(0);
            private int last = -1;

            @Override
            public boolean hasNext() {
                return next >= 0;
            }

            @Override
            public Integer next() {
                if (next < 0) {
                    throw new NoSuchElementException();
                }
                last = next;
                next = nextFrom(next + 1);
                return last;
            }

            @Override
            public void remove() {
                if (last < 0) {
                    throw new IllegalStateException();
                }
                words[last >>> 6] &= ~(1L << last);
                last = -1;
            }
        };
    }

    /** The smallest slot at or after {@code from}, or -1. */
    private int nextFrom(int from) {
        int w = from >>> 6;
        if (w >= words.length) {
            return -1;
        }
        long bits = words[w] & -1L << from;
        while (true) {
            if (bits != 0) {
                return w * 64 + Long.numberOfTrailingZeros(bits);
            }
            if (++w == words.length) {
                return -1;
            }
            bits = words[w];
        }
    }
}
