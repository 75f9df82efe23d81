package dev.basalt.bench.oxigraph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server's and the commands' failure paths, with a stand-in for the {@code oxigraph} executable. */
class OxigraphServerTest {

	@TempDir
	Path tmp;

	@Test
	void aServerThatExitsAtStartIsReportedWithItsLastWords() throws Exception {
		Path cli = tmp.resolve("oxigraph");
		Files.writeString(cli, "#!/bin/sh\necho \"serve $*\"\necho 'Error: IO error: lock hold by current process' >&2\n"
				+ "exit 1\n");
		Files.setPosixFilePermissions(cli, PosixFilePermissions.fromString("rwxr-xr-x"));
		Oxigraph ox = new Oxigraph(cli, null, "no binding here");

		IllegalStateException e = assertThrows(IllegalStateException.class,
				() -> OxigraphServer.start(ox, tmp.resolve("store"), tmp.resolve("serve.log")));

		assertTrue(e.getMessage().contains("exited with code 1 before answering"), e.getMessage());
		assertTrue(e.getMessage().contains("lock hold by current process"), e.getMessage());
		assertTrue(e.getMessage().contains(tmp.resolve("serve.log").toString()), e.getMessage());
		// it was asked to bind to the loopback interface only
		assertTrue(Files.readString(tmp.resolve("serve.log")).contains("--bind 127.0.0.1:"));
	}

	@Test
	void commandsUseTheStoreDirectoryAndTheBindingOnlyWhenInstalled() throws Exception {
		Oxigraph without = new Oxigraph(Path.of("/v/bin/oxigraph"), null, "pip could not install pyoxigraph");
		assertEquals(List.of("/v/bin/oxigraph", "load", "--location", "/s", "--file", "/d.nt"),
				without.loadCommand(Path.of("/s"), Path.of("/d.nt")));
		IllegalStateException e = assertThrows(IllegalStateException.class,
				() -> without.bulkLoadCommand(tmp, Path.of("/s"), Path.of("/d.nt")));
		assertTrue(e.getMessage().contains("pip could not install pyoxigraph"), e.getMessage());

		Oxigraph with = new Oxigraph(Path.of("/v/bin/oxigraph"), Path.of("/v/bin/python"), null);
		List<String> command = with.bulkLoadCommand(tmp.resolve("scripts"), Path.of("/s"), Path.of("/d.nt"));
		Path script = tmp.resolve("scripts").resolve("pyoxigraph_bulk_load.py");
		assertEquals(List.of("/v/bin/python", script.toString(), "/s", "/d.nt"), command);
		String text = Files.readString(script);
		assertTrue(text.contains("store.bulk_load(path=sys.argv[2], format=RdfFormat.N_TRIPLES)"), text);
		assertTrue(text.contains("store.flush()"), "the load is durable before the process ends");
	}
}
