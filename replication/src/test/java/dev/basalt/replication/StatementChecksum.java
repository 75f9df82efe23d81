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

/**
 * SHA-256 over every explicit statement of a repository, as sorted N-Quads lines, with the count; or,
 * for stores too large to sort in a test's heap, {@link #unordered} the count and the sum of each
 * line's 128-bit hash (the same for the same statements in any order). Stateless.
 */
final class StatementChecksum {
    private StatementChecksum() {
    }

    static String of(Repository repo) {
        List<String> lines = new ArrayList<>();
        try (RepositoryConnection c = repo.getConnection();
                RepositoryResult<Statement> all = c.getStatements(null, null, null, false)) {
            for (Statement st : all) {
                lines.add(line(st));
            }
        }
        lines.sort(null);
        return of(lines);
    }

    /** Count and sum (mod 2^128) of the first 16 bytes of each statement line's SHA-256, streamed. */
    static String unordered(Repository repo) {
        long count = 0;
        long high = 0;
        long low = 0;
        try (RepositoryConnection c = repo.getConnection();
                RepositoryResult<Statement> all = c.getStatements(null, null, null, false)) {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (Statement st : all) {
                byte[] d = sha.digest(line(st).getBytes(StandardCharsets.UTF_8));
                long l = java.nio.ByteBuffer.wrap(d, 8, 8).getLong();
                long sum = low + l;
                high += java.nio.ByteBuffer.wrap(d, 0, 8).getLong() + (Long.compareUnsigned(sum, low) < 0 ? 1 : 0);
                low = sum;
                count++;
            }
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        return count + ":" + HexFormat.of().toHexDigits(high) + HexFormat.of().toHexDigits(low);
    }

    private static String line(Statement st) {
        return NTriplesUtil.toNTriplesString(st.getSubject()) + " "
                + NTriplesUtil.toNTriplesString(st.getPredicate()) + " "
                + NTriplesUtil.toNTriplesString(st.getObject())
                + (st.getContext() == null ? "" : " " + NTriplesUtil.toNTriplesString(st.getContext()));
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
