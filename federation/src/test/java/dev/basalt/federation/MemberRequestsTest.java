package dev.basalt.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;

import org.eclipse.rdf4j.federated.structures.QueryInfo;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.impl.EmptyBindingSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link MemberRequests} on its own: requests to sources that split sending from reading are all sent by
 * the calling thread before any is read; other requests run on the pool but the last, which the calling
 * thread runs; a split request's answer passes through its follow-up, and a failed send is reported when
 * the request is read.
 */
class MemberRequestsTest {
    private final ExecutorService pool = Executors.newFixedThreadPool(2);
    private final List<String> events = Collections.synchronizedList(new ArrayList<>());

    @AfterEach
    void stopPool() throws InterruptedException {
        pool.shutdownNow();
        pool.awaitTermination(10, TimeUnit.SECONDS);
    }

    /** A source that logs what it does, by which thread; with {@code splits}, sends first and answers when read. */
    private MemberSource source(String name, boolean splits, boolean failSend) {
        return new MemberSource() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public List<BindingSet> select(String query, QueryInfo info, long timeoutMillis) {
                events.add("select " + name + " on " + Thread.currentThread().getName());
                return List.of(EmptyBindingSet.getInstance());
            }

            @Override
            public Sent send(String query, long timeoutMillis) {
                if (!splits) {
                    return null;
                }
                if (failSend) {
                    throw new IllegalStateException("no connection to " + name);
                }
                events.add("send " + name);
                return new Sent() {
                    @Override
                    public List<BindingSet> read() {
                        events.add("read " + name);
                        return List.of(EmptyBindingSet.getInstance(), EmptyBindingSet.getInstance());
                    }

                    @Override
                    public void abort() {
                        events.add("abort " + name);
                    }
                };
            }
        };
    }

    @Test
    void splitRequestsAreAllSentBeforeAnyIsRead() throws Exception {
        List<FutureTask<List<BindingSet>>> tasks = new ArrayList<>();
        for (String name : List.of("a", "b", "c")) {
            tasks.add(MemberRequests.task(source(name, true, false), "q", null, 1000));
        }
        new MemberRequests(pool).start(tasks);
        assertEquals(List.of("send a", "send b", "send c", "read a", "read b", "read c"), events);
        for (FutureTask<List<BindingSet>> t : tasks) {
            assertEquals(2, t.get().size());
        }
    }

    @Test
    void theAnswerOfASplitRequestPassesThroughThen() throws Exception {
        FutureTask<List<BindingSet>> t = MemberRequests.split(source("a", true, false), "q", 1000,
                rows -> rows.subList(0, 1));
        new MemberRequests(pool).start(List.of(t));
        assertEquals(1, t.get().size());
    }

    @Test
    void wholeRequestsRunOnThePoolButTheLast() throws Exception {
        List<FutureTask<List<BindingSet>>> tasks = new ArrayList<>();
        for (String name : List.of("a", "b", "c")) {
            tasks.add(MemberRequests.task(source(name, false, false), "q", null, 1000));
        }
        new MemberRequests(pool).start(tasks);
        for (FutureTask<List<BindingSet>> t : tasks) {
            t.get(10, TimeUnit.SECONDS);
        }
        String caller = Thread.currentThread().getName();
        assertTrue(events.contains("select c on " + caller), events.toString());
        assertEquals(1, events.stream().filter(e -> e.endsWith(" on " + caller)).count(), events.toString());
    }

    @Test
    void aFailedSendIsReportedWhenTheRequestIsRead() {
        FutureTask<List<BindingSet>> t = MemberRequests.task(source("a", true, true), "q", null, 1000);
        new MemberRequests(pool).start(List.of(t));
        ExecutionException e = assertThrows(ExecutionException.class, t::get);
        assertSame(IllegalStateException.class, e.getCause().getClass());
        assertEquals("no connection to a", e.getCause().getMessage());
    }
}
