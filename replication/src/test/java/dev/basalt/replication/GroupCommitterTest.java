package dev.basalt.replication;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import dev.basalt.replication.log.LogEntries;

/**
 * Change sets committed while an entry is in flight go together in the next entry, in arrival order,
 * within the size bound; a lone one goes as it is; a failed send fails every member of its group; one
 * that waited longer than the commit timeout behind a stuck entry fails unsent (with no stall time);
 * with a stall time, one goes beside a stuck entry once the stall time has passed.
 */
class GroupCommitterTest {
    @Test
    void changeSetsArrivingWhileAnEntryIsInFlightShareTheNextEntry() throws Exception {
        CountDownLatch firstSent = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<byte[]> sent = new ArrayList<>();
        GroupCommitter.Sender sender = entry -> {
            synchronized (sent) {
                sent.add(entry);
            }
            if (entry[0] == 1 && entry[1] == 0) {
                firstSent.countDown();
                await(release);
            }
            return 100L + sent.size();
        };
        try (GroupCommitter groups = new GroupCommitter("test-groups", sender, 40, 60_000)) {
            CompletableFuture<Long> first = commit(groups, bytes(0, 10));
            assertTrue(firstSent.await(10, TimeUnit.SECONDS));
            List<CompletableFuture<Long>> later = new ArrayList<>();
            for (int i = 1; i <= 4; i++) {
                later.add(commit(groups, bytes(i, 10)));
                Thread.sleep(50); // arrival order
            }
            release.countDown();
            assertEquals(101L, first.get(10, TimeUnit.SECONDS));
            for (CompletableFuture<Long> f : later) {
                f.get(10, TimeUnit.SECONDS);
            }
            assertArrayEquals(bytes(0, 10), sent.get(0), "a lone change set goes as it is");
            // 4 change sets of 10 bytes, 15 each with their length: two per 40-byte group
            assertEquals(3, sent.size());
            assertEquals(asStrings(List.of(bytes(1, 10), bytes(2, 10))), asStrings(LogEntries.members(sent.get(1))));
            assertEquals(asStrings(List.of(bytes(3, 10), bytes(4, 10))), asStrings(LogEntries.members(sent.get(2))));
            assertEquals(102L, later.get(0).get());
            assertEquals(102L, later.get(1).get());
            assertEquals(103L, later.get(3).get());
            assertArrayEquals(new long[] {3, 5}, groups.counts());
        }
    }

    @Test
    void aFailedSendFailsEveryMemberOfItsGroup() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        GroupCommitter.Sender sender = entry -> {
            if (entry[0] == 1) {
                await(release);
                return 7;
            }
            throw new IOException("commit not acknowledged");
        };
        try (GroupCommitter groups = new GroupCommitter("test-groups", sender, 1 << 20, 60_000)) {
            CompletableFuture<Long> first = commit(groups, bytes(0, 3));
            Thread.sleep(200);
            CompletableFuture<Long> a = commit(groups, bytes(1, 3));
            CompletableFuture<Long> b = commit(groups, bytes(2, 3));
            Thread.sleep(200);
            release.countDown();
            assertEquals(7L, first.get(10, TimeUnit.SECONDS));
            for (CompletableFuture<Long> f : List.of(a, b)) {
                ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(10, TimeUnit.SECONDS));
                assertTrue(e.getCause().getMessage().contains("commit not acknowledged"), e.getCause().toString());
            }
        }
    }

    @Test
    void aChangeSetWaitingLongerThanTheCommitTimeoutFailsUnsent() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        List<byte[]> sent = new ArrayList<>();
        GroupCommitter.Sender sender = entry -> {
            synchronized (sent) {
                sent.add(entry);
            }
            await(release);
            return 9;
        };
        try (GroupCommitter groups = new GroupCommitter("test-groups", sender, 1 << 20, 300)) {
            CompletableFuture<Long> stuck = commit(groups, bytes(0, 3));
            Thread.sleep(100);
            CompletableFuture<Long> behind = commit(groups, bytes(1, 3));
            Thread.sleep(600);
            release.countDown();
            assertEquals(9L, stuck.get(10, TimeUnit.SECONDS));
            ExecutionException e = assertThrows(ExecutionException.class, () -> behind.get(10, TimeUnit.SECONDS));
            assertTrue(e.getCause().getMessage().contains("not committed"), e.getCause().toString());
            synchronized (sent) {
                assertEquals(1, sent.size(), "the expired change set was sent");
            }
            // a change set arriving afterwards goes as usual
            assertEquals(9L, commit(groups, bytes(2, 3)).get(10, TimeUnit.SECONDS));
        }
    }

    /**
     * An entry stuck in flight (its request retrying at a frozen leader) holds the change sets
     * arriving behind it only for the stall time: they then go in an entry of their own and are
     * committed while the stuck one still waits; while entries move, one is in flight at a time.
     */
    @Test
    void aStuckEntryHoldsTheChangeSetsBehindItOnlyForTheStallTime() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        List<byte[]> sent = new ArrayList<>();
        GroupCommitter.Sender sender = entry -> {
            synchronized (sent) {
                sent.add(entry);
            }
            if (entry[0] == 1 && entry[1] == 0) {
                await(release); // the frozen leader
            }
            return 7;
        };
        try (GroupCommitter groups = new GroupCommitter("test-groups", sender, 1 << 20, 60_000, 300)) {
            CompletableFuture<Long> stuck = commit(groups, bytes(0, 3));
            Thread.sleep(50);
            long start = System.nanoTime();
            CompletableFuture<Long> behind = commit(groups, bytes(1, 3));
            assertEquals(7L, behind.get(5, TimeUnit.SECONDS), "the change set behind a stuck entry was not sent");
            long waitedMillis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(waitedMillis >= 200, "sent beside an entry in flight for " + waitedMillis + " ms only");
            assertTrue(!stuck.isDone(), "the stuck entry was answered");
            release.countDown();
            assertEquals(7L, stuck.get(5, TimeUnit.SECONDS));
            synchronized (sent) {
                assertEquals(2, sent.size());
            }
        }
    }

    @Test
    void aGroupEntryRoundTripsAndRefusesTruncation() {
        byte[] entry = LogEntries.group(List.of(bytes(5, 3), new byte[0], bytes(6, 200)));
        assertTrue(LogEntries.isGroup(entry));
        assertEquals(asStrings(List.of(bytes(5, 3), new byte[0], bytes(6, 200))), asStrings(LogEntries.members(entry)));
        byte[] cut = java.util.Arrays.copyOf(entry, entry.length - 1);
        assertThrows(IllegalArgumentException.class, () -> LogEntries.members(cut));
        byte[] longer = java.util.Arrays.copyOf(entry, entry.length + 1);
        assertThrows(IllegalArgumentException.class, () -> LogEntries.members(longer));
    }

    /** A change set stand-in: version byte 1, then {@code tag}, then filler. */
    private static byte[] bytes(int tag, int length) {
        byte[] b = new byte[length];
        b[0] = 1;
        b[1] = (byte) tag;
        return b;
    }

    private static List<String> asStrings(List<byte[]> members) {
        return members.stream().map(java.util.Arrays::toString).toList();
    }

    private static CompletableFuture<Long> commit(GroupCommitter groups, byte[] changeSet) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return groups.submit(changeSet);
            } catch (IOException e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        }, r -> new Thread(r).start());
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
