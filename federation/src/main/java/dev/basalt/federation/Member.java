package dev.basalt.federation;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * One member of a federation: the Basalt repository that holds shard {@code shard}, addressed by its
 * RDF4J Server repository URL ({@code http://host:port/rdf4j-server/repositories/basalt}), which is
 * also its SPARQL endpoint. The position in the member list is the shard number, so the loader,
 * the router and the front must be given the same list in the same order. {@code selectUrl}, when not
 * null, is the member's select port ({@code http://host:port/repositories/basalt}, docs/federation.md),
 * where the front sends its star SELECTs; everything else goes to the repository URL.
 *
 * <p>Immutable; safe to share between threads.
 */
public record Member(int shard, String repositoryUrl, String selectUrl) {

    public Member {
        repositoryUrl = checked(shard, repositoryUrl);
        selectUrl = selectUrl == null ? null : checked(shard, selectUrl);
    }

    public Member(int shard, String repositoryUrl) {
        this(shard, repositoryUrl, null);
    }

    private static String checked(int shard, String url) {
        URI uri = URI.create(url);
        if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
            throw new IllegalArgumentException("member " + shard + ": '" + url
                    + "' is not an http(s) repository URL such as http://127.0.0.1:8080/rdf4j-server/repositories/basalt");
        }
        while (url.endsWith("/")) {
            url = url.substring(0, url.length() - 1);
        }
        return url;
    }

    /** Where the front sends its star SELECTs: the select port if the member has one, else its repository URL. */
    public String starUrl() {
        return selectUrl != null ? selectUrl : repositoryUrl;
    }

    /** The members with the select ports of {@code commaSeparated} (position i for member i), or as they are if null. */
    public static List<Member> withSelectUrls(List<Member> members, String commaSeparated) {
        if (commaSeparated == null || commaSeparated.isBlank()) {
            return members;
        }
        String[] urls = commaSeparated.split(",");
        if (urls.length != members.size()) {
            throw new IllegalArgumentException("--member-select-urls gives " + urls.length + " URLs for "
                    + members.size() + " members; give one per member, in the order of --members");
        }
        List<Member> with = new ArrayList<>();
        for (Member m : members) {
            with.add(new Member(m.shard, m.repositoryUrl, urls[m.shard].trim()));
        }
        return List.copyOf(with);
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
