package dev.basalt.bench.oxigraph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The install's skip reasons, without Python or network: each missing piece (interpreter, venv
 * module, the oxigraph package, the pyoxigraph binding) is played by a small shell script that fails
 * the way the real tool does.
 */
class OxigraphInstallTest {

	@TempDir
	Path tmp;

	private final List<String> progress = new ArrayList<>();

	@Test
	void aMissingInterpreterIsSkippedNamingItAndTheOption() {
		OxigraphInstall.Outcome o = new OxigraphInstall(tmp.resolve("no-python").toString(), tmp.resolve("venv"),
				progress::add).prepare();

		assertNull(o.oxigraph());
		assertTrue(o.skipReason().contains("`" + tmp.resolve("no-python") + "` was not found"), o.skipReason());
		assertTrue(o.skipReason().contains("--python"), o.skipReason());
		assertFalse(o.skipReason().contains("on the PATH"), "a path is not looked up on the PATH: " + o.skipReason());
		assertTrue(progress.stream().anyMatch(l -> l.startsWith("Skipping Oxigraph: ")), progress::toString);
	}

	@Test
	void aNameNotOnThePathSaysSo() {
		OxigraphInstall.Outcome o = new OxigraphInstall("basalt-no-such-python-3", tmp.resolve("venv"), progress::add)
				.prepare();

		assertNull(o.oxigraph());
		assertTrue(o.skipReason().contains("was not found on the PATH"), o.skipReason());
	}

	@Test
	void aMissingVenvModuleNamesTheDebianPackageAndPythonsMessage() throws Exception {
		Path python = script("python3", "echo '/usr/bin/python3: No module named venv' >&2", "exit 1");

		OxigraphInstall.Outcome o = new OxigraphInstall(python.toString(), tmp.resolve("venv"), progress::add).prepare();

		assertNull(o.oxigraph());
		assertTrue(o.skipReason().contains("python3-venv"), o.skipReason());
		assertTrue(o.skipReason().contains("No module named venv"), o.skipReason());
	}

	@Test
	void aPipFailureIsSkippedWithPipsLastWords() throws Exception {
		Path python = fakePython("echo 'ERROR: No matching distribution found for oxigraph==0.5.13' >&2; exit 1",
				"exit 1");

		OxigraphInstall.Outcome o = new OxigraphInstall(python.toString(), tmp.resolve("venv"), progress::add).prepare();

		assertNull(o.oxigraph());
		assertTrue(o.skipReason().startsWith("pip could not install oxigraph==" + OxigraphInstall.VERSION),
				o.skipReason());
		assertTrue(o.skipReason().contains("No matching distribution found"), o.skipReason());
	}

	@Test
	void theCommandLineToolRunsWithoutTheBindingWhoseReasonIsKept() throws Exception {
		// pip "installs" the oxigraph command but fails for pyoxigraph; importing it fails too
		Path python = fakePython("case \"$*\" in *pyoxigraph*) echo 'ERROR: no wheel for pyoxigraph' >&2; exit 1;; esac; "
				+ "printf '#!/bin/sh\\necho oxigraph " + OxigraphInstall.VERSION + "\\n' > \"$(dirname \"$0\")/oxigraph\"; "
				+ "chmod +x \"$(dirname \"$0\")/oxigraph\"", "echo 'ModuleNotFoundError: pyoxigraph' >&2; exit 1");

		OxigraphInstall.Outcome o = new OxigraphInstall(python.toString(), tmp.resolve("venv"), progress::add).prepare();

		assertNull(o.skipReason());
		assertNotNull(o.oxigraph());
		assertFalse(o.oxigraph().hasBinding());
		assertEquals(tmp.resolve("venv").resolve("bin").resolve("oxigraph"), o.oxigraph().cli());
		assertTrue(o.oxigraph().bindingSkip().contains("pyoxigraph==" + OxigraphInstall.VERSION), o.oxigraph()
				.bindingSkip());
		assertTrue(o.oxigraph().bindingSkip().contains("no wheel for pyoxigraph"), o.oxigraph().bindingSkip());

		// a second run reuses the environment: no second venv
		List<String> again = new ArrayList<>();
		new OxigraphInstall(python.toString(), tmp.resolve("venv"), again::add).prepare();
		assertTrue(again.stream().noneMatch(l -> l.startsWith("Creating")), again::toString);
		assertTrue(again.stream().noneMatch(l -> l.startsWith("Installing oxigraph==")), again::toString);
	}

	/**
	 * A "python3" whose {@code -m venv DIR} makes DIR/bin/python (running {@code venvPython}) and
	 * DIR/bin/pip (running {@code pip}).
	 */
	private Path fakePython(String pip, String venvPython) throws Exception {
		Path pipBody = tmp.resolve("pip-body");
		Files.writeString(pipBody, "#!/bin/sh\n" + pip + "\n");
		Path pythonBody = tmp.resolve("python-body");
		Files.writeString(pythonBody, "#!/bin/sh\n" + venvPython + "\n");
		return script("python3", "[ \"$1\" = -m ] && [ \"$2\" = venv ] || exit 2", "mkdir -p \"$3/bin\"",
				"cp " + pipBody + " \"$3/bin/pip\"", "cp " + pythonBody + " \"$3/bin/python\"",
				"chmod +x \"$3/bin/pip\" \"$3/bin/python\"");
	}

	private Path script(String name, String... lines) throws Exception {
		Path p = tmp.resolve("bin-" + name);
		Files.writeString(p, "#!/bin/sh\n" + String.join("\n", lines) + "\n");
		Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
		return p;
	}
}
