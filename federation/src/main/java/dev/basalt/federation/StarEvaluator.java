package dev.basalt.federation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import org.eclipse.rdf4j.federated.endpoint.Endpoint;
import org.eclipse.rdf4j.federated.structures.QueryInfo;
import org.eclipse.rdf4j.model.BNode;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.Binding;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.QueryEvaluationException;
import org.eclipse.rdf4j.query.algebra.evaluation.QueryBindingSet;

/**
 * Evaluates {@link StarGroup}s on the members: for a block of input rows (the left side of a join,
 * or the one row a star is evaluated with) it sends one SPARQL SELECT per member concerned, the
 * star's body joined with a VALUES block of the rows' values for the star's variables and a row
 * number, and joins each answer back to its row. A row goes to the owner of the star's subject
 * only when the subject is a constant or the row binds the subject variable to an IRI; otherwise to
 * every member, all in parallel, answers unioned. A row whose value for a star variable is a blank
 * node matches nothing (blank nodes are local to the member that answered them).
 *
 * <p>A member may hold statements of subjects it does not own: replicated subjects
 * ({@link ReplicatedVocabulary}), and statements a member's reasoner derived about other members'
 * subjects (their owners hold them too, {@link DistributedClosure}). So the owner of a subject holds
 * every statement of it, and of an answer that every member gave, only the rows whose subject the
 * answering member owns are kept (a subject that is not an IRI cannot be placed and is kept). A star
 * with a replication pattern matches replicated subjects only, which every member holds whole: it
 * goes to one member, taken in turn. A star whose query needs only its first rows ({@link MemberLimit})
 * has each member cut its answer, and asks a member again for more when its cut answer holds too few
 * rows of subjects it owns.
 *
 * <p>Thread-safe: it keeps no state between calls. Of one call's requests, those to the front's own
 * member client are written and then read by the calling thread ({@link MemberRequests#start}), a cut
 * answer's further requests made there too; of the others (through FedX), all but the last run on the
 * federation's request pool and the last on the calling thread, which then waits for the others, at
 * most for the query's remaining time.
 */
final class StarEvaluator {
    static final String ROW = "basalt_row";

    private final List<MemberSource> endpoints;
    private final SubjectHashPartition partition;
    private final MemberRequests memberRequests;
    private final int blockSize;
    private final ReplicatedVocabulary replication;
    private final AtomicInteger turn = new AtomicInteger();
    private volatile Set<String> replicatedRange = Set.of();
    private volatile long queryTimeoutMillis = 300_000;
    private volatile long firstAskRows = 100;
    private volatile long maxAskRows = Long.MAX_VALUE / 32;

    StarEvaluator(List<Endpoint> endpoints, ExecutorService pool, int blockSize) {
        this(endpoints, pool, blockSize, ReplicatedVocabulary.schema());
    }

    StarEvaluator(List<Endpoint> endpoints, ExecutorService pool, int blockSize, ReplicatedVocabulary replication) {
        this(pool, blockSize, replication, endpoints.stream().map(MemberSource::viaFedX).toList());
    }

    /** Stars sent to {@code sources}, in shard order (the Basalt front: {@link MemberHttp}). */
    StarEvaluator(ExecutorService pool, int blockSize, ReplicatedVocabulary replication, List<MemberSource> sources) {
        List<MemberSource> endpoints = sources;
        this.endpoints = List.copyOf(endpoints);
        this.partition = new SubjectHashPartition(endpoints.size());
        this.memberRequests = new MemberRequests(pool);
        this.blockSize = blockSize;
        this.replication = replication;
    }

    ReplicatedVocabulary replication() {
        return replication;
    }

    /** Predicates whose objects are all replicated subjects ({@link ReplicatedRanges}), learned at start. */
    Set<String> replicatedRange() {
        return replicatedRange;
    }

    void setReplicatedRange(Set<String> predicates) {
        this.replicatedRange = Set.copyOf(predicates);
    }

    /** The longest wait for a star's answers when no FedX query (with its own time limit) is given. */
    void setQueryTimeoutMillis(long millis) {
        this.queryTimeoutMillis = millis;
    }

    /**
     * The fewest rows asked of a member for a star whose LIMIT goes to the members ({@link MemberLimit}); a
     * few more rows cost the member and the front little, and often save asking again.
     */
    void setFirstAskRows(long rows) {
        this.firstAskRows = Math.max(1, rows);
    }

    /** The most rows a member may send in one answer ({@code --max-member-rows}): no cut answer asks for more. */
    void setMaxAskRows(long rows) {
        this.maxAskRows = Math.max(1, Math.min(rows, Long.MAX_VALUE / 32));
    }

    /** The shard that owns a subject IRI. */
    int ownerOf(String subject) {
        return partition.shardOf(subject);
    }

    /** A member for work any member can do (replicated subjects), taken in turn. */
    int anyMember() {
        return Math.floorMod(turn.getAndIncrement(), endpoints.size());
    }

    /** Rows of a join's left side handed to {@link #join} at once: eight bound-join blocks, sent together. */
    int chunkRows() {
        return blockSize * 8;
    }

    /** The number of members (shards). */
    int memberCount() {
        return endpoints.size();
    }

    /**
     * The shards a star goes to when no row binds its variables: its owner for a constant subject, one
     * member taken in turn for a star over replicated subjects, else every member.
     */
    List<Integer> routeAlone(StarGroup star) {
        if (star.subjectValue() != null) {
            return List.of(partition.shardOf(star.subjectValue().stringValue()));
        }
        if (star.replicated()) {
            return List.of(anyMember());
        }
        List<Integer> all = new ArrayList<>();
        for (int shard = 0; shard < endpoints.size(); shard++) {
            all.add(shard);
        }
        return all;
    }

    /** A request of {@code text} to one member, not started, waiting at most the query's remaining time. */
    FutureTask<List<BindingSet>> task(int shard, String text, FrontQuery query) {
        return MemberRequests.task(endpoints.get(shard), text, null, query.remainingMillis());
    }

    /** Starts requests ({@link MemberRequests#start}). */
    void start(List<FutureTask<List<BindingSet>>> tasks) {
        memberRequests.start(tasks);
    }

    /** {@link #join(StarGroup, List, boolean, QueryInfo, FrontQuery)} inside FedX. */
    List<BindingSet> join(StarGroup star, List<BindingSet> left, boolean optional, QueryInfo info) {
        return join(star, left, optional, info, null);
    }

    /**
     * The star joined with each of {@code left}'s rows, in row order; with {@code optional}, a row the
     * star does not match is kept as it is (a left join). {@code info} is FedX's query (its time limit),
     * or null outside FedX; {@code front} is the query the front evaluates itself ({@link DirectEvaluation}:
     * its deadline and the stars asked ahead, {@link StarBatch}), or null inside FedX.
     */
    List<BindingSet> join(StarGroup star, List<BindingSet> left, boolean optional, QueryInfo info, FrontQuery front) {
        TreeSet<String> bound = new TreeSet<>();
        for (BindingSet row : left) {
            for (String name : row.getBindingNames()) {
                if (star.getBindingNames().contains(name)) {
                    bound.add(name);
                }
            }
        }
        List<String> values = new ArrayList<>(bound);
        List<Request> requests = new ArrayList<>();
        List<Future<List<BindingSet>>> ahead = front != null && values.isEmpty() && !left.isEmpty()
                ? front.askedAhead(star) : null;
        if (ahead != null) {
            // every row gets the answer asked ahead on the star's route (StarBatch)
            for (int shard = 0; shard < ahead.size(); shard++) {
                if (ahead.get(shard) != null) {
                    requests.add(new Request(endpoints.get(shard), shard, ahead.get(shard)));
                }
            }
        }
        long timeout = info != null ? info.getMaxRemainingTimeMS()
                : front != null ? front.remainingMillis() : queryTimeoutMillis;
        int anyMember = star.replicated() ? Math.floorMod(turn.getAndIncrement(), endpoints.size()) : -1;
        // Without a VALUES block every row gets the same answer: ask once, on the first row's route.
        int step = values.isEmpty() ? Math.max(1, left.size()) : blockSize;
        List<FutureTask<List<BindingSet>>> tasks = new ArrayList<>();
        for (int from = ahead != null ? left.size() : 0; from < left.size(); from += step) {
            int to = values.isEmpty() ? from + 1 : Math.min(left.size(), from + step);
            List<List<Integer>> rowsOf = new ArrayList<>();
            for (int shard = 0; shard < endpoints.size(); shard++) {
                rowsOf.add(new ArrayList<>());
            }
            for (int i = from; i < to; i++) {
                route(star, left.get(i), values, rowsOf, i, anyMember);
            }
            for (int shard = 0; shard < endpoints.size(); shard++) {
                if (!rowsOf.get(shard).isEmpty()) {
                    String query = query(star, values, left, rowsOf.get(shard));
                    MemberSource endpoint = endpoints.get(shard);
                    int member = shard;
                    boolean cut = star.memberRows() > 0 && values.isEmpty() && left.size() == 1;
                    FutureTask<List<BindingSet>> task;
                    if (cut && info == null) {
                        long asked = firstAsk(star);
                        task = MemberRequests.split(endpoint, cutQuery(star, query, asked), timeout,
                                first -> moreRows(endpoint, member, star, query, null, timeout, asked, first));
                    } else if (cut) {
                        task = new FutureTask<>(() -> firstRows(endpoint, member, star, query, info, timeout));
                    } else {
                        task = MemberRequests.task(endpoint, query, info, timeout);
                    }
                    tasks.add(task);
                    requests.add(new Request(endpoint, shard, task));
                }
            }
        }
        start(tasks);
        List<List<BindingSet>> matches = new ArrayList<>(Collections.nCopies(left.size(), null));
        collect(requests, star, values.isEmpty() ? left.size() : -1, matches, info, front);
        List<BindingSet> out = new ArrayList<>();
        for (int i = 0; i < left.size(); i++) {
            List<BindingSet> found = matches.get(i);
            if (found == null || found.isEmpty()) {
                if (optional) {
                    out.add(left.get(i));
                }
                continue;
            }
            for (BindingSet match : found) {
                if (front != null && (out.size() & 1023) == 1023) {
                    front.check(); // a large product of rows stops at the query's deadline
                }
                QueryBindingSet merged = new QueryBindingSet(left.get(i));
                for (Binding binding : match) {
                    String name = star.variableOf(binding.getName());
                    if (!ROW.equals(binding.getName()) && !StarBatch.BRANCH.equals(binding.getName())
                            && !merged.hasBinding(name)) {
                        merged.addBinding(name, binding.getValue());
                    }
                }
                out.add(merged);
            }
        }
        return out;
    }

    /** Adds row {@code i} to the members that can hold its matches ({@code anyMember} ≥ 0: a replicated star's one member). */
    private void route(StarGroup star, BindingSet row, List<String> values, List<List<Integer>> rowsOf, int i,
            int anyMember) {
        for (String name : values) {
            if (row.getValue(name) instanceof BNode) {
                return;
            }
        }
        Value subject = star.subjectValue() != null ? star.subjectValue()
                : star.subjectVar() != null ? row.getValue(star.subjectVar()) : null;
        if (subject == null && anyMember >= 0) {
            rowsOf.get(anyMember).add(i);
        } else if (subject == null) {
            rowsOf.forEach(rows -> rows.add(i));
        } else if (subject.isIRI()) {
            rowsOf.get(partition.shardOf(subject.stringValue())).add(i);
        }
        // a literal subject matches nothing
    }

    private static String query(StarGroup star, List<String> values, List<BindingSet> left, List<Integer> rows) {
        StringBuilder query = new StringBuilder("SELECT * WHERE { ");
        if (!values.isEmpty()) {
            query.append("VALUES (?").append(ROW);
            for (String name : values) {
                query.append(" ?").append(star.sparqlName(name));
            }
            query.append(") {");
            for (int i : rows) {
                query.append(" (").append(i);
                for (String name : values) {
                    Value value = left.get(i).getValue(name);
                    try {
                        query.append(' ').append(value == null ? "UNDEF" : SparqlText.value(value));
                    } catch (SparqlText.Unwritable e) {
                        throw new IllegalStateException("routing dropped rows with blank nodes: " + value, e);
                    }
                }
                query.append(')');
            }
            query.append(" } ");
        }
        return query.append(star.body()).append(" }").toString();
    }

    /**
     * A member's first {@link StarGroup#memberRows} solutions of a star ({@link MemberLimit}), in the star's
     * member order: asked with that LIMIT (at least {@link #setFirstAskRows} rows: a member's first rows are
     * often replicated subjects it does not own), and asked again for more rows (as many as the share of owned rows
     * seen so far suggests, with a margin, at least twice and at most sixteen times as many) while the answer
     * was cut and holds fewer rows than that of subjects the member owns (the others are dropped by
     * {@link #collect}). A cut answer's owned rows are the member's first owned rows in that order, so they
     * hold what the query needs from this member.
     */
    private List<BindingSet> firstRows(MemberSource endpoint, int shard, StarGroup star, String query, QueryInfo info,
            long timeoutMillis) {
        long asked = firstAsk(star);
        return moreRows(endpoint, shard, star, query, info, timeoutMillis, asked,
                endpoint.select(cutQuery(star, query, asked), info, timeoutMillis));
    }

    /** The rows a cut star's first request asks of a member ({@link #firstRows}). */
    private long firstAsk(StarGroup star) {
        return Math.max(star.memberRows(), Math.min(firstAskRows, maxAskRows));
    }

    private static String cutQuery(StarGroup star, String query, long asked) {
        String order = star.memberOrder().isEmpty() ? "" : " ORDER BY " + star.memberOrder();
        return query + order + " LIMIT " + asked;
    }

    /** {@link #firstRows} given the answer to a request of {@code asked} rows: asks again while that is too few. */
    private List<BindingSet> moreRows(MemberSource endpoint, int shard, StarGroup star, String query, QueryInfo info,
            long timeoutMillis, long asked, List<BindingSet> answer) {
        String subject = star.subjectVar() != null && !star.replicated() ? star.sparqlName(star.subjectVar()) : null;
        long needed = star.memberRows();
        while (true) {
            if (answer.size() < asked || subject == null) {
                return answer;
            }
            long owned = 0;
            for (BindingSet row : answer) {
                if (owns(shard, row.getValue(subject))) {
                    owned++;
                }
            }
            if (owned >= needed) {
                return answer;
            }
            // the owned share seen so far, with a margin; none seen: sixteen times as many
            double more = owned == 0 ? 16 : Math.max(2, 1.25 * needed / owned);
            if (asked > maxAskRows) {
                return endpoint.select(query, info, timeoutMillis); // fails as too large, or ends
            }
            // never more than one row past what a member may send: that answer fails as too large
            asked = Math.min((long) Math.ceil(asked * Math.min(more, 16)), maxAskRows + 1);
            answer = endpoint.select(cutQuery(star, query, asked), info, timeoutMillis);
        }
    }

    /**
     * Waits for every request and files each answer row under its input row; with {@code everyRow} ≥ 0
     * (no VALUES block: the answers match every input row alike) each answer goes to all rows.
     */
    private void collect(List<Request> requests, StarGroup star, int everyRow, List<List<BindingSet>> matches,
            QueryInfo info, FrontQuery front) {
        String subject = star.subjectVar() != null && !star.replicated() ? star.sparqlName(star.subjectVar()) : null;
        long remaining = info != null ? info.getMaxRemainingTimeMS()
                : front != null ? front.remainingMillis() : queryTimeoutMillis;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(1, remaining));
        try {
            for (Request request : requests) {
                List<BindingSet> answer;
                try {
                    answer = request.answer().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (ExecutionException e) {
                    Throwable cause = e.getCause();
                    if (cause instanceof ResultWriter.TooLarge tooLarge) {
                        throw tooLarge;
                    }
                    throw cause instanceof QueryEvaluationException q ? q
                            : new QueryEvaluationException("member " + request.endpoint().name()
                                    + " failed on a star subquery: " + cause, cause);
                } catch (TimeoutException e) {
                    String what = "member " + request.endpoint().name() + " did not answer a star subquery";
                    throw front != null ? front.timedOut(what, e)
                            : new QueryEvaluationException(what + " within the query's time", e);
                } catch (java.util.concurrent.CancellationException e) {
                    throw new QueryEvaluationException("a star subquery to member " + request.endpoint().name()
                            + " was cancelled", e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new QueryEvaluationException("interrupted while waiting for " + request.endpoint().name(), e);
                }
                for (BindingSet row : answer) {
                    if (subject != null && !owns(request.shard(), row.getValue(subject))) {
                        continue; // a copy: the subject's owner answers it
                    }
                    if (everyRow >= 0) {
                        for (int i = 0; i < everyRow; i++) {
                            add(matches, i, row);
                        }
                    } else {
                        add(matches, Integer.parseInt(row.getValue(ROW).stringValue()), row);
                    }
                }
            }
        } finally {
            for (Request request : requests) {
                request.answer().cancel(true);
            }
        }
    }

    /**
     * Sends {@code query} to every member at once and returns the rows whose {@code subjectVar} value the
     * answering member owns (or that cannot be placed), waiting at most the query timeout.
     */
    List<BindingSet> everyMemberOwned(String query, String subjectVar, FrontQuery front) {
        long timeout = front != null ? front.remainingMillis() : queryTimeoutMillis;
        List<FutureTask<List<BindingSet>>> answers = new ArrayList<>();
        for (MemberSource source : endpoints) {
            answers.add(MemberRequests.task(source, query, null, timeout));
        }
        start(answers);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeout);
        List<BindingSet> rows = new ArrayList<>();
        try {
            for (int shard = 0; shard < answers.size(); shard++) {
                String name = endpoints.get(shard).name();
                List<BindingSet> answer;
                try {
                    answer = answers.get(shard).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof ResultWriter.TooLarge tooLarge) {
                        throw tooLarge;
                    }
                    throw e.getCause() instanceof QueryEvaluationException q ? q
                            : new QueryEvaluationException("member " + name + " failed: " + e.getCause(), e.getCause());
                } catch (TimeoutException e) {
                    throw new QueryEvaluationException("member " + name + " did not answer within the query's time", e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new QueryEvaluationException("interrupted while waiting for " + name, e);
                }
                for (BindingSet row : answer) {
                    if (owns(shard, row.getValue(subjectVar))) {
                        rows.add(row);
                    }
                }
            }
        } finally {
            answers.forEach(a -> a.cancel(true));
        }
        return rows;
    }

    /** Whether {@code shard} owns {@code subject}, or the subject cannot be placed (not an IRI). */
    private boolean owns(int shard, Value subject) {
        return subject == null || !subject.isIRI() || endpoints.size() == 1
                || partition.shardOf(subject.stringValue()) == shard;
    }

    private static void add(List<List<BindingSet>> matches, int row, BindingSet match) {
        if (matches.get(row) == null) {
            matches.set(row, new ArrayList<>());
        }
        matches.get(row).add(match);
    }

    private record Request(MemberSource endpoint, int shard, Future<List<BindingSet>> answer) {
    }
}
