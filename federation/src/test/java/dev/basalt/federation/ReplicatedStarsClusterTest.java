package dev.basalt.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.eclipse.rdf4j.query.QueryLanguage;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.sail.memory.MemoryStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two members with a configured replicated class (the shop's vendors): the loader puts every vendor
 * statement on both members, the front learns that {@code bsbm:vendor} points at vendors only and
 * joins vendor stars into the offer stars that bind them, so the members answer those joins alone.
 * Every query of {@link TinyShop} must still answer as one store (RDF4J's MemoryStore) does: copies of
 * the vendors are not repeated, and a star over the replicated class goes to one member.
 */
class ReplicatedStarsClusterTest {
    static final String VENDOR = TinyShop.EX + "vocabulary/Vendor";

    @TempDir
    Path dir;

    @Test
    void replicatedVendorsAreJoinedOnTheMembersAndAnswersStayThoseOfOneStore() throws Exception {
        assertTrue(Files.isDirectory(LocalClusterTest.HOME.resolve("webapps")), "build the launcher first");
        List<Path> files = TinyShop.write(dir);
        ReplicatedVocabulary vendors = ReplicatedVocabulary.with(List.of(), List.of(VENDOR));
        // the members with select ports (free ports): the front's star SELECTs go there
        try (LocalCluster cluster = LocalCluster.start(2, dir.resolve("cluster"), LocalClusterTest.launcher(), List.of(),
                List.of(), null, vendors)) {
            assertTrue(cluster.members().stream().allMatch(m -> m.selectUrl() != null), "select ports open");
            PartitioningLoader.LoadResult load = cluster.load(files);
            long lines = Files.readAllLines(files.get(0)).size() + Files.readAllLines(files.get(1)).size();
            assertEquals(lines, load.statements());
            assertEquals(lines + 4 * 3, size(cluster.members().get(0)) + size(cluster.members().get(1)),
                    "each of the 4 vendors' 3 statements is on both members");

            SailRepository reference = new SailRepository(new MemoryStore());
            FrontSettings settings = FrontSettings.defaults();
            try (RepositoryConnection c = reference.getConnection();
                    Federation joined = Federation.open(cluster.members(), settings.withReplication(vendors));
                    Federation apart = Federation.open(cluster.members(), settings)) {
                c.add(files.get(0).toFile(), RDFFormat.NTRIPLES);
                c.add(files.get(1).toFile(), RDFFormat.NQUADS);
                for (String query : TinyShop.queries()) {
                    String text = TinyShop.PREFIXES + query;
                    List<String> want = solutions(c, text);
                    assertEquals(want, counted(joined, text).solutions(), "vendors joined on the members: " + query);
                    if (!query.contains("bsbm:Vendor")) {
                        // without the replication setting the front still keeps each subject's rows from its owner
                        assertEquals(want, counted(apart, text).solutions(), "vendors joined by the front: " + query);
                    }
                }
                String offers = TinyShop.PREFIXES + "SELECT ?offer ?price ?vendorLabel WHERE { ?offer bsbm:vendor ?vendor ;"
                        + " bsbm:price ?price . ?vendor rdfs:label ?vendorLabel ; bsbm:country ex:country1 }";
                LocalClusterTest.Counted onMembers = counted(joined, offers);
                LocalClusterTest.Counted byFront = counted(apart, offers);
                assertEquals(solutions(c, offers), onMembers.solutions());
                assertEquals(onMembers.solutions(), byFront.solutions());
                assertFalse(onMembers.solutions().isEmpty());
                assertEquals(2, onMembers.requests(), "offers with their vendors: one request per member");
                assertTrue(onMembers.requests() < byFront.requests(),
                        onMembers.requests() + " requests with the vendor star joined on the members, " + byFront.requests()
                                + " without");
                LocalClusterTest.Counted typed = counted(joined, TinyShop.PREFIXES
                        + "SELECT ?v ?l WHERE { ?v a bsbm:Vendor ; rdfs:label ?l }");
                assertEquals(4, typed.solutions().size(), typed.solutions().toString());
                assertEquals(1, typed.requests(), "a star over a replicated class asks one member");
                // the front as a SPARQL-endpoint repository of the first member's RDF4J Server (Workbench)
                cluster.startFront(settings.withReplication(vendors), 0);
                HttpResponse<String> refreshed = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                        cluster.frontUrl().replace(SparqlFront.PATH, SparqlFront.REFRESH_PATH)))
                        .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, refreshed.statusCode(), refreshed.body());
                assertTrue(refreshed.body().contains(TinyShop.EX + "vocabulary/vendor"), refreshed.body());
                // DESCRIBE of a replicated subject: every member holds the vendor whole, the answer has
                // each of its statements once (FedX returned one copy per member), and the offers that
                // name it as vendor, which live on both members
                String describe = TinyShop.PREFIXES + "DESCRIBE ?v WHERE { ex:offer1 bsbm:vendor ?v }";
                org.eclipse.rdf4j.model.Model want = org.eclipse.rdf4j.query.QueryResults.asModel(
                        c.prepareGraphQuery(describe).evaluate());
                HttpResponse<String> described = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                        cluster.frontUrl())).header("Content-Type", "application/sparql-query")
                        .header("Accept", "application/n-triples").POST(HttpRequest.BodyPublishers.ofString(describe))
                        .build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, described.statusCode(), described.body());
                assertTrue(want.size() > 3, "the vendor's 3 statements and the offers that name it: " + want.size());
                assertEquals(want.size(), described.body().lines().filter(l -> !l.isBlank()).count(), described.body());
                // through the front: a one-star query about one subject goes to its owner whole (one
                // request), a join of stars is evaluated by the front without FedX; both as one store answers
                String aboutOffer = TinyShop.PREFIXES + "SELECT ?p ?o WHERE { ex:offer1 ?p ?o } ORDER BY ?p ?o";
                long before = memberRequests(cluster);
                List<String> forwarded = viaFront(cluster, aboutOffer);
                assertEquals(1, memberRequests(cluster) - before, "one request, to the owner of ex:offer1");
                assertEquals(solutions(c, aboutOffer), forwarded);
                assertEquals(solutions(c, offers), viaFront(cluster, offers));
                String page = cluster.registerWithWorkbench();
                assertTrue(page.endsWith("/rdf4j-workbench/repositories/federation/summary"), page);
                String viaServer = cluster.members().get(0).repositoryUrl().replace("/repositories/basalt",
                        "/repositories/" + LocalCluster.WORKBENCH_REPOSITORY);
                org.eclipse.rdf4j.repository.sparql.SPARQLRepository server = new org.eclipse.rdf4j.repository.sparql.SPARQLRepository(
                        viaServer);
                try (RepositoryConnection viaWorkbench = server.getConnection()) {
                    assertEquals(solutions(c, offers), solutions(viaWorkbench, offers));
                } finally {
                    server.shutDown();
                }
            } finally {
                reference.shutDown();
            }
        }
    }

    private static long memberRequests(LocalCluster cluster) throws Exception {
        HttpResponse<String> stats = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                cluster.frontUrl().replace(SparqlFront.PATH, "/stats"))).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, stats.statusCode(), stats.body());
        for (String line : stats.body().split("\n")) {
            if (line.startsWith("member-requests ")) {
                return Long.parseLong(line.substring("member-requests ".length()).trim());
            }
        }
        throw new AssertionError("no member-requests line in /stats: " + stats.body());
    }

    private static List<String> viaFront(LocalCluster cluster, String query) {
        org.eclipse.rdf4j.repository.sparql.SPARQLRepository front = new org.eclipse.rdf4j.repository.sparql.SPARQLRepository(
                cluster.frontUrl());
        try (RepositoryConnection c = front.getConnection()) {
            return solutions(c, query);
        } finally {
            front.shutDown();
        }
    }

    private static LocalClusterTest.Counted counted(Federation federation, String query) {
        long before = federation.requestsSent();
        try (RepositoryConnection c = federation.repository().getConnection()) {
            List<String> rows = solutions(c, query);
            return new LocalClusterTest.Counted(rows, federation.requestsSent() - before);
        }
    }

    private static List<String> solutions(RepositoryConnection c, String query) {
        try (TupleQueryResult result = c.prepareTupleQuery(QueryLanguage.SPARQL, query).evaluate()) {
            return LocalClusterTest.canonical(result);
        }
    }

    private static long size(Member member) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(member.repositoryUrl()
                + "/size")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return Long.parseLong(r.body().trim());
    }
}
