package dev.basalt.federation;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.http.HttpRequestInterceptor;
import org.apache.http.client.config.RequestConfig;
import org.apache.http.client.protocol.HttpClientContext;
import org.apache.http.impl.client.DefaultHttpRequestRetryHandler;
import org.apache.http.impl.client.HttpClients;
import org.eclipse.rdf4j.federated.FedXConfig;
import org.eclipse.rdf4j.federated.FedXFactory;
import org.eclipse.rdf4j.federated.endpoint.Endpoint;
import org.eclipse.rdf4j.federated.endpoint.EndpointFactory;
import org.eclipse.rdf4j.federated.repository.FedXRepository;
import org.eclipse.rdf4j.http.client.SPARQLProtocolSession;
import org.eclipse.rdf4j.http.client.SharedHttpClientSessionManager;
import org.eclipse.rdf4j.query.resultio.TupleQueryResultFormat;
import org.eclipse.rdf4j.repository.sparql.SPARQLRepository;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A FedX federation over Basalt members, each reached as a SPARQL endpoint with the connect and
 * read timeouts of {@link FrontSettings#memberTimeout()}, so a member that hangs surfaces as an
 * error instead of a stuck query. FedX's endpoint ids are the member ids ({@code shard-<i>}).
 *
 * <p>The repository is thread-safe (FedX serves concurrent queries); {@link #close()} shuts FedX and
 * the HTTP clients down once.
 */
public final class Federation implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Federation.class);

    private final List<Member> members;
    private final FedXRepository repository;
    private final List<SPARQLRepository> repositories;
    private final List<SharedHttpClientSessionManager> clients;
    private final ExecutorService starRequests;
    private final AtomicLong requestsSent;
    private final StarEvaluator stars;
    private final ReplicatedVocabulary replication;
    private final List<MemberHttp> direct;
    private final List<MemberConnections> directClients;
    private final PreparedQueries prepared;

    private Federation(List<Member> members, FedXRepository repository, List<SPARQLRepository> repositories,
            List<SharedHttpClientSessionManager> clients, ExecutorService starRequests, AtomicLong requestsSent,
            StarEvaluator stars, ReplicatedVocabulary replication, List<MemberHttp> direct,
            List<MemberConnections> directClients) {
        this.direct = direct;
        this.directClients = directClients;
        this.stars = stars;
        this.replication = replication;
        this.members = members;
        this.repository = repository;
        this.repositories = repositories;
        this.clients = clients;
        this.starRequests = starRequests;
        this.requestsSent = requestsSent;
        this.prepared = new PreparedQueries(query -> DirectEvaluation.plan(query, stars),
                stars == null ? null : StarPushdown.decidesOn(stars.replication(), stars::replicatedRange),
                1024);
    }

    public static Federation open(List<Member> members, FrontSettings settings) {
        int timeoutMillis = (int) Math.min(Integer.MAX_VALUE, settings.memberTimeout().toMillis());
        RequestConfig timeouts = RequestConfig.custom()
                .setConnectTimeout(timeoutMillis)
                .setConnectionRequestTimeout(timeoutMillis)
                .setSocketTimeout(timeoutMillis)
                .build();
        List<Endpoint> endpoints = new ArrayList<>();
        List<SharedHttpClientSessionManager> clients = new ArrayList<>();
        List<SPARQLRepository> repositories = new ArrayList<>();
        List<MemberHttp> direct = new ArrayList<>();
        List<MemberConnections> memberConnections = new ArrayList<>();
        int starThreads = settings.joinWorkerThreads() + settings.unionWorkerThreads();
        int connections = Math.max(settings.joinWorkerThreads(), settings.unionWorkerThreads()) + settings.httpThreads()
                + starThreads;
        AtomicLong requestsSent = new AtomicLong();
        for (Member member : members) {
            // A session manager of our own: the repository neither replaces nor shuts it down, so the
            // timeouts hold for the federation's life. One retry covers a pooled connection the server
            // closed while idle; a read timeout is never retried.
            SharedHttpClientSessionManager sessions = new SharedHttpClientSessionManager();
            sessions.setHttpClientBuilder(HttpClients.custom()
                    .useSystemProperties()
                    .setDefaultRequestConfig(timeouts)
                    .setRetryHandler(new DefaultHttpRequestRetryHandler(1, true))
                    .addInterceptorLast(capTimeouts(timeoutMillis))
                    .addInterceptorLast((HttpRequestInterceptor) (request, context) -> requestsSent.incrementAndGet())
                    .evictIdleConnections(30, TimeUnit.SECONDS)
                    .setMaxConnPerRoute(connections)
                    .setMaxConnTotal(connections));
            clients.add(sessions);
            SPARQLRepository sparql = new BinaryResultsRepository(member.repositoryUrl());
            sparql.setHttpClientSessionManager(sessions);
            // Initialized here, FedX treats the repository as managed outside it and never shuts it
            // down and re-creates its HTTP client (which would drop the timeouts above).
            sparql.init();
            repositories.add(sparql);
            // The front's own requests (MemberHttp) on kept-alive connections of its own
            // (star SELECTs to the member's select port when it has one)
            MemberConnections pool = new MemberConnections(member.repositoryUrl(), requestsSent);
            memberConnections.add(pool);
            MemberConnections selects = pool;
            if (member.selectUrl() != null) {
                selects = new MemberConnections(member.selectUrl(), requestsSent);
                memberConnections.add(selects);
            }
            direct.add(new MemberHttp(member.id(), member.repositoryUrl(), pool, selects, timeoutMillis,
                    settings.maxMemberRows()));
            endpoints.add(EndpointFactory.loadEndpoint(member.id(), sparql));
        }
        FedXConfig config = new FedXConfig()
                .withBoundJoinBlockSize(settings.boundJoinBlockSize())
                .withJoinWorkerThreads(settings.joinWorkerThreads())
                .withUnionWorkerThreads(settings.unionWorkerThreads())
                .withLeftJoinWorkerThreads(settings.joinWorkerThreads())
                .withSourceSelectionCacheSpec(settings.sourceSelectionCache())
                .withEnforceMaxQueryTime((int) Math.max(1, settings.queryTimeout().toSeconds()))
                .withIncludeInferredDefault(true);
        AtomicInteger threads = new AtomicInteger();
        ExecutorService starRequests = Executors.newFixedThreadPool(starThreads, r -> {
            Thread t = new Thread(r, "basalt-star-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        StarEvaluator stars = settings.starPushdown()
                ? new StarEvaluator(starRequests, settings.boundJoinBlockSize(), settings.replication(),
                        direct.stream().map(MemberSource::viaHttp).toList()) : null;
        if (stars != null) {
            stars.setMaxAskRows(settings.maxMemberRows());
        }
        if (stars != null) {
            stars.setQueryTimeoutMillis(settings.queryTimeout().toMillis());
            stars.setReplicatedRange(ReplicatedRanges.learn(repositories, settings.replication()));
        }
        FedXRepository repository = FedXFactory.newFederation().withMembers(endpoints).withConfig(config)
                .withFederationEvaluationStrategyFactory(new RewritingStrategyFactory(stars)).create();
        repository.init();
        LOG.info("FedX federation over {} members (star pushdown {}): {}", members.size(),
                settings.starPushdown() ? "on" : "off", members.stream().map(Member::describe).toList());
        return new Federation(List.copyOf(members), repository, repositories, clients, starRequests, requestsSent, stars,
                settings.replication(), List.copyOf(direct), List.copyOf(memberConnections));
    }

    /**
     * A member's SPARQL endpoint asked for tuple answers in RDF4J's binary results format first (every
     * member is an RDF4J Server, which writes it): cheaper to write and to read than SPARQL XML, the
     * SPARQL client's default. A server that cannot write it would answer in a format the Accept
     * header lists next.
     */
    private static final class BinaryResultsRepository extends SPARQLRepository {
        BinaryResultsRepository(String endpoint) {
            super(endpoint);
        }

        @Override
        protected SPARQLProtocolSession createHTTPClient() {
            SPARQLProtocolSession session = super.createHTTPClient();
            session.setPreferredTupleQueryResultFormat(TupleQueryResultFormat.BINARY);
            return session;
        }
    }

    /**
     * FedX hands each member request the query's remaining time as its socket timeout (RDF4J's
     * SPARQL client turns a query's max execution time into a per-request parameter that overrides
     * the client's defaults), so a member that accepts the connection and then never answers would
     * hold the query for the whole query timeout. This interceptor runs just before the request is
     * sent and caps the connect and read timeouts at the member timeout.
     */
    private static HttpRequestInterceptor capTimeouts(int timeoutMillis) {
        return (request, context) -> {
            HttpClientContext client = HttpClientContext.adapt(context);
            RequestConfig config = client.getRequestConfig();
            boolean readCapped = config.getSocketTimeout() > 0 && config.getSocketTimeout() <= timeoutMillis;
            boolean connectCapped = config.getConnectTimeout() > 0 && config.getConnectTimeout() <= timeoutMillis;
            if (!readCapped || !connectCapped) {
                client.setRequestConfig(RequestConfig.copy(config)
                        .setSocketTimeout(readCapped ? config.getSocketTimeout() : timeoutMillis)
                        .setConnectTimeout(connectCapped ? config.getConnectTimeout() : timeoutMillis)
                        .build());
            }
        };
    }

    /**
     * Forgets what the front learned from the members' data, after a load: FedX's source-selection
     * cache, and the predicates whose objects are all replicated subjects ({@link ReplicatedRanges},
     * learned again now). Returns those predicates.
     */
    public java.util.Set<String> refresh() {
        repository.getFederationContext().getSourceSelectionCache().invalidate();
        prepared.clear();
        if (stars == null) {
            return java.util.Set.of();
        }
        java.util.Set<String> ranges = ReplicatedRanges.learn(repositories, replication);
        stars.setReplicatedRange(ranges);
        prepared.clear(); // plans made while the ranges were learned again used the old ones
        return ranges;
    }

    /**
     * The member that answers a query whole ({@link WholeQueryRoute}), or null when it needs several
     * members or FedX; {@code plan} comes from {@link #directPlan}.
     */
    MemberHttp wholeQueryMember(org.eclipse.rdf4j.query.algebra.TupleExpr plan) {
        int shard = WholeQueryRoute.member(plan, stars);
        return shard < 0 ? null : direct.get(shard);
    }

    /**
     * The query's rewritten algebra when the front evaluates it itself ({@link DirectEvaluation}: data
     * read through stars only), else null (FedX answers it; always null with star pushdown off).
     */
    org.eclipse.rdf4j.query.algebra.TupleExpr directPlan(org.eclipse.rdf4j.query.parser.ParsedQuery query) {
        return DirectEvaluation.plan(query, stars);
    }

    /**
     * The parse and plan ({@link #directPlan}) of a query text, reused for a text sent lately
     * ({@link PreparedQueries}); a {@link org.eclipse.rdf4j.query.MalformedQueryException} when it is not SPARQL.
     */
    PreparedQueries.Prepared prepare(String text) {
        return prepared.prepare(text);
    }

    /** Query texts whose parse and plan were reused so far. */
    public long preparedHits() {
        return prepared.hits();
    }

    /** Queries whose plan was their shape's kept plan filled with their constants ({@link ShapePlanCache}). */
    public long shapePlanHits() {
        return prepared.shapePlanHits();
    }

    /** Queries whose parse was an earlier parse of their shape with their own constants ({@link PreparedQueries}). */
    public long shapeHits() {
        return prepared.shapeHits();
    }

    /**
     * The statements a planned DESCRIBE ({@link #directPlan}) gives, or null when FedX must answer it
     * ({@link DirectDescribe}).
     */
    java.util.List<org.eclipse.rdf4j.model.Statement> describeDirect(org.eclipse.rdf4j.query.algebra.TupleExpr plan,
            FrontQuery query) {
        return DirectDescribe.describe(DirectDescribe.where(plan), stars, query);
    }

    /** The solutions of a plan from {@link #directPlan}, within {@code query}'s deadline. */
    org.eclipse.rdf4j.common.iteration.CloseableIteration<org.eclipse.rdf4j.query.BindingSet> evaluateDirect(
            org.eclipse.rdf4j.query.algebra.TupleExpr plan, FrontQuery query) {
        return DirectEvaluation.evaluate(plan, stars, query);
    }

    public FedXRepository repository() {
        return repository;
    }

    public List<Member> members() {
        return members;
    }

    /** HTTP requests sent to the members since the federation opened (queries, source selection, probes excluded). */
    public long requestsSent() {
        return requestsSent.get();
    }

    @Override
    public void close() {
        try {
            repository.shutDown();
        } finally {
            starRequests.shutdownNow();
            for (SPARQLRepository member : repositories) {
                member.shutDown();
            }
            for (SharedHttpClientSessionManager client : clients) {
                client.shutDown();
            }
            for (MemberConnections client : directClients) {
                client.close();
            }
        }
    }
}
