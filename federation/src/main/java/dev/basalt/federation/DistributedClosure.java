package dev.basalt.federation;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the members' materialized inferences ({@code basalt:inference} on every member) the closure of
 * the whole data set, not of each member's part. A member's reasoner sees only its own statements
 * (plus the replicated schema), so two things are missing after a partitioned load:
 * <ul>
 * <li>conclusions whose subject another member owns ({@code rdfs:range}, {@code owl:inverseOf},
 * {@code owl:SymmetricProperty}): the member that derived them holds them, their subject's owner
 * does not;</li>
 * <li>conclusions whose premises live on two members: {@code x p y} on the owner of x, and
 * {@code y a D} or {@code y q z} on the owner of y ({@code owl:someValuesFrom} restrictions on p with
 * class D, {@code owl:TransitiveProperty} q).</li>
 * </ul>
 * The closure runs in rounds. In each, every member's statements (inferred included) are read once as
 * N-Quads; a statement whose subject another member owns is sent to that owner, a statement about a
 * replicated subject ({@link ReplicatedVocabulary}), or one that makes its subject replicated, to every
 * member (so replicated subjects stay whole on every member); and for each
 * {@code x p y} with p a someValuesFrom or transitive property and y owned elsewhere, y's typings by
 * the restrictions' classes and y's transitive-property statements are <em>borrowed</em> from y's owner
 * into the graph {@value #BORROWED} of x's owner, where the reasoner reads them as premises (it reasons
 * over all graphs and writes its conclusions into the default graph). Only what the receiving member
 * lacks is sent, as one transaction per member, so each member's own reasoner extends its closure
 * incrementally. The rounds end when no member lacks anything: then every member's closure equals
 * what one store holding all statements infers, restricted to the subjects it owns (and it may hold
 * derived statements of others' subjects, which the front skips, {@link StarEvaluator}).
 *
 * <p>Limits: statements with blank nodes are not exchanged (a blank node means another node on
 * another member); a member's presence is tested with 64-bit hashes of the canonical lines (a
 * collision, about 1 in 10^7 at 10^6 statements per member, would keep one statement from being sent);
 * removals are not propagated (after deleting statements, load the members again and re-run). The
 * rules exchanged are those of Basalt's {@code owl-rl} set; a rule joining two subjects by another
 * path (none in that set) would need its premises borrowed as well.
 *
 * <p>Thread rules: one run at a time per instance, on the calling thread.
 */
public final class DistributedClosure {
    private static final Logger LOG = LoggerFactory.getLogger(DistributedClosure.class);
    /** The graph that holds statements borrowed from other members as premises. */
    public static final String BORROWED = "urn:basalt:federation:borrowed";
    private static final String TYPE = "<" + ReplicatedVocabulary.TYPE + ">";
    private static final int BORROW_BLOCK = 400;

    /** What a run did: rounds, statements sent to owners or replicated, statements borrowed, time. */
    public record Result(int rounds, long shipped, long borrowed, long nanos) {
    }

    private final List<Member> members;
    private final ReplicatedVocabulary replication;
    private final SubjectHashPartition partition;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    public DistributedClosure(List<Member> members, ReplicatedVocabulary replication) {
        this.members = List.copyOf(members);
        this.replication = replication;
        this.partition = new SubjectHashPartition(members.size());
    }

    public Result run() throws IOException, InterruptedException {
        long started = System.nanoTime();
        Schema schema = readSchema();
        long shipped = 0;
        long borrowed = 0;
        int round = 0;
        while (true) {
            round++;
            long roundStarted = System.nanoTime();
            int n = members.size();
            List<Set<String>> send = new ArrayList<>();
            List<Set<String>> needs = new ArrayList<>();
            long[][] present = new long[n][];
            for (int i = 0; i < n; i++) {
                send.add(new LinkedHashSet<>());
                needs.add(new HashSet<>());
            }
            Set<String> replicated = replicatedSubjects();
            for (int i = 0; i < n; i++) {
                present[i] = export(i, schema, replicated, send, needs.get(i));
            }
            long roundShipped = 0;
            for (Set<String> lines : send) {
                roundShipped += lines.size();
            }
            long roundBorrowed = 0;
            for (int i = 0; i < n; i++) {
                roundBorrowed += borrow(i, needs.get(i), schema, send.get(i));
            }
            long sent = 0;
            for (int j = 0; j < n; j++) {
                sent += sendMissing(j, send.get(j), present[j]);
            }
            LOG.info("distributed closure round {}: {} statements sent to members that lacked them ({} candidates, {}"
                    + " borrowed premises among them) in {} ms", round, sent, roundShipped + roundBorrowed, roundBorrowed,
                    (System.nanoTime() - roundStarted) / 1_000_000);
            if (sent == 0) {
                break;
            }
            shipped += sent;
            borrowed += roundBorrowed;
        }
        Result result = new Result(round, shipped, borrowed, System.nanoTime() - started);
        LOG.info("distributed closure over {} members: {} rounds, {} statements sent, {} ms", members.size(),
                result.rounds(), result.shipped(), result.nanos() / 1_000_000);
        return result;
    }

    /** The properties whose statements join two subjects in a rule: someValuesFrom properties and transitive ones. */
    private record Schema(Set<String> svfProperties, Set<String> svfClasses, Set<String> transitive) {
        boolean joinsObject(String predicate) {
            return svfProperties.contains(predicate) || transitive.contains(predicate);
        }
    }

    private Schema readSchema() throws IOException, InterruptedException {
        Set<String> svfProperties = new HashSet<>();
        Set<String> svfClasses = new HashSet<>();
        for (String[] row : select(members.get(0), "SELECT ?p ?d WHERE { ?r <" + ReplicatedVocabulary.OWL
                + "onProperty> ?p ; <" + ReplicatedVocabulary.OWL + "someValuesFrom> ?d FILTER(isIRI(?p) && isIRI(?d)) }")) {
            svfProperties.add(row[0]);
            if (!row[1].equals("<" + ReplicatedVocabulary.OWL + "Thing>")) {
                svfClasses.add(row[1]);
            }
        }
        Set<String> transitive = new HashSet<>();
        for (String[] row : select(members.get(0), "SELECT ?p WHERE { ?p a <" + ReplicatedVocabulary.OWL
                + "TransitiveProperty> FILTER(isIRI(?p)) }")) {
            transitive.add(row[0]);
        }
        LOG.info("distributed closure: someValuesFrom on {} properties ({} classes), {} transitive properties",
                svfProperties.size(), svfClasses.size(), transitive.size());
        return new Schema(svfProperties, svfClasses, transitive);
    }

    /**
     * Reads member {@code i}'s statements: files the ones other members need under {@code send}, the
     * objects whose premises it needs under {@code needs}; returns the sorted hashes of what it holds.
     */
    private long[] export(int i, Schema schema, Set<String> replicated, List<Set<String>> send, Set<String> needs)
            throws IOException, InterruptedException {
        Member member = members.get(i);
        HttpRequest request = HttpRequest.newBuilder(URI.create(member.repositoryUrl() + "/statements?infer=true"))
                .header("Accept", "application/n-quads").GET().build();
        HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        long[] hashes = new long[1 << 16];
        int count = 0;
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8),
                1 << 16)) {
            if (response.statusCode() != 200) {
                throw new IOException("member " + member.describe() + " refused its export (HTTP " + response.statusCode()
                        + "): " + lines.readLine());
            }
            String line;
            while ((line = lines.readLine()) != null) {
                QuadLine quad = QuadLine.parse(line);
                if (quad == null) {
                    continue;
                }
                if (count == hashes.length) {
                    hashes = Arrays.copyOf(hashes, count * 2);
                }
                hashes[count++] = quad.hash();
                if (quad.hasBlankNode() || quad.graph() != null && quad.graph().equals("<" + BORROWED + ">")
                        || !quad.subjectIsIri()) {
                    continue;
                }
                String predicate = QuadLine.iri(quad.predicate());
                String objectIri = quad.objectIsIri() ? QuadLine.iri(quad.object()) : null;
                if (replication.replicates(predicate, objectIri) || replicated.contains(quad.subject())) {
                    for (int j = 0; j < send.size(); j++) {
                        if (j != i) {
                            send.get(j).add(quad.text());
                        }
                    }
                    continue;
                }
                int owner = partition.shardOf(QuadLine.iri(quad.subject()));
                if (owner != i) {
                    send.get(owner).add(quad.text());
                } else if (objectIri != null && schema.joinsObject(quad.predicate())
                        && partition.shardOf(objectIri) != i && !replicated.contains(quad.object())) {
                    needs.add(quad.object());
                }
            }
        }
        long[] sorted = Arrays.copyOf(hashes, count);
        Arrays.sort(sorted);
        return sorted;
    }

    /**
     * The replicated subjects (as N-Triples terms): those with a replication statement on the first
     * member, which holds every replicated subject whole.
     */
    private Set<String> replicatedSubjects() throws IOException, InterruptedException {
        StringBuilder predicates = new StringBuilder();
        for (String p : replication.predicates()) {
            predicates.append(" <").append(p).append('>');
        }
        StringBuilder classes = new StringBuilder();
        for (String c : replication.classes()) {
            classes.append(" <").append(c).append('>');
        }
        Set<String> subjects = new HashSet<>();
        for (String[] row : select(members.get(0), "SELECT DISTINCT ?s WHERE { { VALUES ?p {" + predicates
                + " } ?s ?p ?o } UNION { VALUES ?c {" + classes + " } ?s a ?c } FILTER(isIRI(?s)) }")) {
            subjects.add(row[0]);
        }
        return subjects;
    }

    /** Asks the owners of {@code needs} for their premises and files them for member {@code i}'s borrowed graph. */
    private long borrow(int i, Set<String> needs, Schema schema, Set<String> into) throws IOException, InterruptedException {
        if (needs.isEmpty() || schema.svfClasses().isEmpty() && schema.transitive().isEmpty()) {
            return 0;
        }
        List<List<String>> byOwner = new ArrayList<>();
        for (int j = 0; j < members.size(); j++) {
            byOwner.add(new ArrayList<>());
        }
        for (String object : needs) {
            byOwner.get(partition.shardOf(QuadLine.iri(object))).add(object);
        }
        String filter = "FILTER(?p = " + TYPE + " && ?o IN (" + String.join(", ", orNothing(schema.svfClasses()))
                + ") || ?p IN (" + String.join(", ", orNothing(schema.transitive())) + "))";
        long found = 0;
        for (int j = 0; j < members.size(); j++) {
            List<String> subjects = byOwner.get(j);
            for (int from = 0; from < subjects.size(); from += BORROW_BLOCK) {
                String query = "SELECT ?y ?p ?o WHERE { VALUES ?y { "
                        + String.join(" ", subjects.subList(from, Math.min(subjects.size(), from + BORROW_BLOCK)))
                        + " } ?y ?p ?o " + filter + " FILTER(isIRI(?o)) }";
                for (String[] row : select(members.get(j), query)) {
                    into.add(new QuadLine(row[0], row[1], row[2], "<" + BORROWED + ">").text());
                    found++;
                }
            }
        }
        return found;
    }

    private static Set<String> orNothing(Set<String> terms) {
        return terms.isEmpty() ? Set.of("<urn:basalt:federation:nothing>") : terms;
    }

    /** Sends member {@code j} the lines of {@code lines} it does not hold, as one transaction; returns how many. */
    private long sendMissing(int j, Set<String> lines, long[] present) throws IOException, InterruptedException {
        StringBuilder body = new StringBuilder();
        long missing = 0;
        for (String text : lines) {
            QuadLine quad = QuadLine.parse(text);
            if (Arrays.binarySearch(present, quad.hash()) < 0) {
                body.append(text).append('\n');
                missing++;
            }
        }
        if (missing == 0) {
            return 0;
        }
        Member member = members.get(j);
        HttpRequest request = HttpRequest.newBuilder(URI.create(member.repositoryUrl() + "/statements"))
                .header("Content-Type", "application/n-quads; charset=UTF-8")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            throw new IOException("member " + member.describe() + " refused " + missing + " statements of the distributed"
                    + " closure (HTTP " + response.statusCode() + "): " + response.body()
                    + "; the closure is incomplete until it is run again");
        }
        return missing;
    }

    /** A SELECT's solutions as N-Triples terms, in the order of its variables (TSV answer). */
    private List<String[]> select(Member member, String query) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(member.repositoryUrl()))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Accept", "text/tab-separated-values")
                .POST(HttpRequest.BodyPublishers.ofString("query=" + URLEncoder.encode(query, StandardCharsets.UTF_8)))
                .build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("member " + member.describe() + " refused a query of the distributed closure (HTTP "
                    + response.statusCode() + "): " + response.body());
        }
        List<String[]> rows = new ArrayList<>();
        String[] lines = response.body().split("\n");
        for (int k = 1; k < lines.length; k++) {
            if (!lines[k].isEmpty()) {
                rows.add(lines[k].split("\t", -1));
            }
        }
        return rows;
    }
}
