package dev.basalt.replication;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.RepositoryResult;
import org.eclipse.rdf4j.rio.helpers.NTriplesUtil;

/** SHA-256 over every explicit statement of a repository, as sorted N-Quads lines, with the count. */
final class StatementChecksum {
    private StatementChecksum() {
    }

    static String of(Repository repo) {
        List<String> lines = new ArrayList<>();
        try (RepositoryConnection c = repo.getConnection();
                RepositoryResult<Statement> all = c.getStatements(null, null, null, false)) {
            for (Statement st : all) {
                lines.add(NTriplesUtil.toNTriplesString(st.getSubject()) + " "
                        + NTriplesUtil.toNTriplesString(st.getPredicate()) + " "
                        + NTriplesUtil.toNTriplesString(st.getObject())
                        + (st.getContext() == null ? "" : " " + NTriplesUtil.toNTriplesString(st.getContext())));
            }
        }
        lines.sort(null);
        return of(lines);
    }

    /** The checksum of N-Quads lines already sorted. */
    static String of(List<String> sortedLines) {
        List<String> lines = sortedLines;
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (String line : lines) {
                sha.update(line.getBytes(StandardCharsets.UTF_8));
                sha.update((byte) '\n');
            }
            return lines.size() + ":" + HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
