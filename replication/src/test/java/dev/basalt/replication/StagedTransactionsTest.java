package dev.basalt.replication;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import dev.basalt.replication.log.LogEntries;

/** Splitting a change set into log pieces and staging them back, with interleaving, aborts, gaps and expiry. */
class StagedTransactionsTest {
    private static byte[] bytes(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        b[0] = 1; // a change set's version byte
        return b;
    }

    @Test
    void piecesSplitAndStageBackToTheSameBytesWhileOthersInterleave() {
        byte[] a = bytes(10_000, 1);
        byte[] b = bytes(333, 2);
        List<byte[]> pa = LogEntries.split(a, 7, 1000);
        List<byte[]> pb = LogEntries.split(b, -8, 100);
        assertEquals(10, pa.size());
        assertEquals(4, pb.size());
        assertEquals(LogEntries.COMMIT, pa.get(9)[0]);
        StagedTransactions staged = new StagedTransactions(1_000);
        long index = 10;
        StagedTransactions.Outcome outA = null;
        StagedTransactions.Outcome outB = null;
        for (int i = 0; i < 10; i++) {
            if (i < 4) {
                outB = staged.accept(index++, LogEntries.read(pb.get(i)));
            }
            outA = staged.accept(index++, LogEntries.read(pa.get(i)));
            if (i == 0) {
                assertEquals(10, staged.oldestIndex(), "b's first part is the oldest staged");
            }
        }
        assertNotNull(outA);
        assertNotNull(outB);
        assertArrayEquals(a, outA.changeSet());
        assertArrayEquals(b, outB.changeSet());
        assertTrue(staged.isEmpty());
        assertEquals(Long.MAX_VALUE, staged.oldestIndex());
        // a change set of one piece is a commit alone
        List<byte[]> single = LogEntries.split(bytes(50, 3), 9, 100);
        assertEquals(1, single.size());
        assertArrayEquals(bytes(50, 3), staged.accept(index, LogEntries.read(single.get(0))).changeSet());
    }

    @Test
    void anAbortedExpiredOrGappedTransactionIsRefusedAtCommit() {
        StagedTransactions staged = new StagedTransactions(100);
        List<byte[]> p = LogEntries.split(bytes(500, 4), 1, 100);
        staged.accept(1, LogEntries.read(p.get(0)));
        staged.accept(2, LogEntries.read(p.get(1)));
        assertEquals(1, staged.oldestIndex());
        assertNull(staged.accept(3, LogEntries.read(LogEntries.abort(1))));
        assertTrue(staged.isEmpty());
        StagedTransactions.Outcome refused = staged.accept(4, LogEntries.read(p.get(4)));
        assertNull(refused.changeSet());
        assertTrue(refused.refusal().contains("holds 0"), refused.refusal());

        // a gap (part 2 missing) drops the transaction
        staged.accept(10, LogEntries.read(p.get(0)));
        staged.accept(11, LogEntries.read(p.get(1)));
        staged.accept(12, LogEntries.read(p.get(3)));
        assertTrue(staged.isEmpty());

        // expiry: the last part 101 entries behind
        staged.accept(20, LogEntries.read(p.get(0)));
        staged.expire(120);
        assertEquals(1, staged.size());
        staged.expire(121);
        assertTrue(staged.isEmpty());
        assertNull(staged.accept(122, LogEntries.read(p.get(4))).changeSet());
    }

    @Test
    void aRepeatedPartIsIgnoredAndARepeatedCommitAppliesNothingAndIsNotRefused() {
        StagedTransactions staged = new StagedTransactions(1_000);
        byte[] whole = bytes(350, 5);
        List<byte[]> p = LogEntries.split(whole, 3, 100);
        staged.accept(1, LogEntries.read(p.get(0)));
        staged.accept(2, LogEntries.read(p.get(1)));
        staged.accept(3, LogEntries.read(p.get(1))); // a client's retry committed the part again
        staged.accept(4, LogEntries.read(p.get(2)));
        assertArrayEquals(whole, staged.accept(5, LogEntries.read(p.get(3))).changeSet());
        assertTrue(StagedTransactions.Outcome.REPEATED == staged.accept(6, LogEntries.read(p.get(3))));
        assertNull(staged.accept(7, LogEntries.read(p.get(0))));
        assertTrue(staged.isEmpty(), "a retried part of a committed transaction was staged again");
    }

    @Test
    void aTruncatedPieceOrAWholeChangeSetIsNotReadAsAPiece() {
        assertThrows(IllegalArgumentException.class, () -> LogEntries.read(new byte[] {LogEntries.PART, 0, 0}));
        assertThrows(IllegalArgumentException.class, () -> LogEntries.read(new byte[] {1, 0, 0}));
        byte[] noNumber = new byte[9];
        noNumber[0] = LogEntries.COMMIT;
        assertThrows(IllegalArgumentException.class, () -> LogEntries.read(noNumber));
    }
}
