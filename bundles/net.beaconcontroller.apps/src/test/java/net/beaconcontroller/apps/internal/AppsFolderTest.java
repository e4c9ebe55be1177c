package net.beaconcontroller.apps.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.function.Predicate;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleActivator;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.launch.Framework;
import org.osgi.framework.launch.FrameworkFactory;

/** The apps folder against a real (embedded) OSGi framework and jars written by the test. */
class AppsFolderTest {
    private static final long DEADLINE_MILLIS = 2000;

    @TempDir
    Path tmp;
    private Path apps;
    private Framework framework;
    private AppsFolder folder;

    /** The activator of the test's failing app: the bundle carries this class. */
    public static final class FailingActivator implements BundleActivator {
        @Override
        public void start(BundleContext context) {
            throw new IllegalStateException("no greeting configured");
        }

        @Override
        public void stop(BundleContext context) {
        }
    }

    @BeforeEach
    void start() throws Exception {
        apps = tmp.resolve("apps");
        framework = ServiceLoader.load(FrameworkFactory.class).iterator().next().newFramework(Map.of(
                Constants.FRAMEWORK_STORAGE, tmp.resolve("framework").toString(),
                Constants.FRAMEWORK_STORAGE_CLEAN, Constants.FRAMEWORK_STORAGE_CLEAN_ONFIRSTINIT,
                Constants.FRAMEWORK_BEGINNING_STARTLEVEL, "6"));
        framework.start();
        System.setProperty("beacon.apps", apps.toString());
        folder = new AppsFolder(framework.getBundleContext());
    }

    @AfterEach
    void stop() throws Exception {
        folder.deactivate();
        System.clearProperty("beacon.apps");
        framework.stop();
        framework.waitForStop(10_000);
    }

    @Test
    void aJarDroppedInIsStartedUpdatedWhenReplacedAndUninstalledWhenDeleted() throws Exception {
        long t0 = System.nanoTime();
        drop("app.jar", jar("test.app", "1.0.0", null, false));
        var v1 = await(a -> a.state().equals("ACTIVE"));
        assertTrue(System.nanoTime() - t0 < DEADLINE_MILLIS * 1_000_000L, "started within 2 s");
        assertEquals("test.app", v1.name());

        drop("app.jar", jar("test.app", "1.0.1", null, false));
        var v2 = await(a -> a.version().equals("1.0.1") && a.state().equals("ACTIVE"));
        assertEquals(v1.id(), v2.id(), "updated in place, not installed again");

        Files.delete(apps.resolve("app.jar"));
        awaitGone("test.app");
        assertEquals(List.of(), folder.apps());
    }

    @Test
    void aJarThatCannotResolveIsReportedAndDisturbsNothing() throws Exception {
        drop("good.jar", jar("test.good", "1.0.0", null, false));
        await(a -> a.jar().equals("good.jar") && a.state().equals("ACTIVE"));
        drop("broken.jar", jar("test.broken", "1.0.0", "com.example.nothere", false));
        var broken = await(a -> a.jar().equals("broken.jar") && a.problem() != null);
        assertEquals("not started: missing package com.example.nothere", broken.problem());
        assertEquals("INSTALLED", broken.state());
        assertEquals("ACTIVE", view("good.jar").orElseThrow().state());
    }

    @Test
    void anActivatorThatThrowsIsReported() throws Exception {
        drop("failing.jar", jar("test.failing", "1.0.0", null, true));
        var failing = await(a -> a.problem() != null);
        assertEquals("not started: its activator failed: java.lang.IllegalStateException: no greeting configured",
                failing.problem());
    }

    @Test
    void somethingThatIsNotABundleIsReported() throws Exception {
        drop("junk.jar", "not a jar".getBytes());
        var junk = await(a -> a.problem() != null);
        assertTrue(junk.problem().startsWith("not installed: "), junk.problem());
        assertEquals(-1, junk.id());
    }

    @Test
    void appsComeBackWhenBeaconStartsAgain() throws Exception {
        drop("app.jar", jar("test.app", "1.0.0", null, false));
        long before = await(a -> a.state().equals("ACTIVE")).id();
        folder.deactivate();
        // The framework keeps what the earlier run installed; a new run installs it again from the folder.
        folder = new AppsFolder(framework.getBundleContext());
        var again = await(a -> a.state().equals("ACTIVE"));
        assertNotEquals(before, again.id());
        assertEquals(1, Arrays.stream(framework.getBundleContext().getBundles())
                .filter(b -> "test.app".equals(b.getSymbolicName())).count());
    }

    private void drop(String name, byte[] content) throws IOException {
        // As cp to a temporary name and mv would: the folder never sees half a jar.
        Files.createDirectories(apps);
        Path part = tmp.resolve(name + ".part");
        Files.write(part, content);
        Files.move(part, apps.resolve(name), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private Optional<AppsFolder.View> view(String jar) {
        return folder.apps().stream().filter(a -> a.jar().equals(jar)).findFirst();
    }

    private AppsFolder.View await(Predicate<AppsFolder.View> done) throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE_MILLIS * 1_000_000L;
        while (System.nanoTime() < deadline) {
            var match = folder.apps().stream().filter(done).findFirst();
            if (match.isPresent()) {
                return match.get();
            }
            Thread.sleep(20);
        }
        throw new AssertionError("not within 2 s; apps: " + folder.apps());
    }

    private void awaitGone(String name) throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE_MILLIS * 1_000_000L;
        while (System.nanoTime() < deadline) {
            if (Arrays.stream(framework.getBundleContext().getBundles()).map(Bundle::getSymbolicName)
                    .noneMatch(name::equals)) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError(name + " still installed after 2 s");
    }

    private static byte[] jar(String name, String version, String missingImport, boolean failingActivator)
            throws IOException {
        var manifest = new Manifest();
        var main = manifest.getMainAttributes();
        main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        main.putValue(Constants.BUNDLE_MANIFESTVERSION, "2");
        main.putValue(Constants.BUNDLE_SYMBOLICNAME, name);
        main.putValue(Constants.BUNDLE_VERSION, version);
        if (missingImport != null) {
            main.putValue(Constants.IMPORT_PACKAGE, missingImport);
        }
        String activator = FailingActivator.class.getName();
        if (failingActivator) {
            main.putValue(Constants.IMPORT_PACKAGE, "org.osgi.framework");
            main.putValue(Constants.BUNDLE_ACTIVATOR, activator);
        }
        var bytes = new java.io.ByteArrayOutputStream();
        try (var out = new JarOutputStream(bytes, manifest)) {
            if (failingActivator) {
                String entry = activator.replace('.', '/') + ".class";
                out.putNextEntry(new JarEntry(entry));
                try (InputStream in = AppsFolderTest.class.getClassLoader().getResourceAsStream(entry)) {
                    in.transferTo(out);
                }
            }
        }
        return bytes.toByteArray();
    }
}
