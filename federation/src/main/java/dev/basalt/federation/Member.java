package dev.basalt.federation;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * One member of a federation: the Basalt repository that holds shard {@code shard}, addressed by its
 * RDF4J Server repository URL ({@code http://host:port/rdf4j-server/repositories/basalt}), which is
 * also its SPARQL endpoint. The position in the member list is the shard number, so the loader,
 * the router and the front must be given the same list in the same order.
 *
 * <p>Immutable; safe to share between threads.
 */
public record Member(int shard, String repositoryUrl) {

    public Member {
        URI uri = URI.create(repositoryUrl);
        if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
            throw new IllegalArgumentException("member " + shard + ": '" + repositoryUrl
                    + "' is not an http(s) repository URL such as http://127.0.0.1:8080/rdf4j-server/repositories/basalt");
        }
        while (repositoryUrl.endsWith("/")) {
            repositoryUrl = repositoryUrl.substring(0, repositoryUrl.length() - 1);
        }
    }

    /** The name used in logs and errors: {@code shard-<i>}. */
    public String id() {
        return "shard-" + shard;
    }

    /** How errors name the member: its id and URL. */
    public String describe() {
        return id() + " (" + repositoryUrl + ")";
    }

    /** Members from a comma-separated URL list; list position i becomes shard i. */
    public static List<Member> parseList(String commaSeparated) {
        List<Member> members = new ArrayList<>();
        for (String url : commaSeparated.split(",")) {
            if (!url.isBlank()) {
                members.add(new Member(members.size(), url.trim()));
            }
        }
        if (members.isEmpty()) {
            throw new IllegalArgumentException("--members needs at least one repository URL");
        }
        return List.copyOf(members);
    }
}
