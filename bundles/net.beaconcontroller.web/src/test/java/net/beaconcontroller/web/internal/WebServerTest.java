package net.beaconcontroller.web.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import jakarta.servlet.http.HttpServletRequest;
import net.beaconcontroller.config.SettingException;
import net.beaconcontroller.core.test.Configs;
import net.beaconcontroller.web.IWebManageable;
import net.beaconcontroller.web.Page;

/** The web server over real HTTP on loopback: contributions come and go, the guard refuses what it must. */
class WebServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();
    private WebServer server;

    @RestController
    static final class Echo {
        @GetMapping("/test/echo/json")
        Map<String, Object> get() {
            return Map.of("hello", "world");
        }

        @PostMapping("/test/echo/json")
        Map<String, Object> post(@RequestBody Map<String, Object> body) {
            return body;
        }
    }

    private static IWebManageable part(Object controller, Map<String, Object> summary) {
        return new IWebManageable() {
            @Override
            public List<Object> controllers() {
                return List.of(controller);
            }

            @Override
            public Map<String, Object> summary() {
                return summary;
            }
        };
    }

    private void start(String... settings) throws Exception {
        var all = new java.util.ArrayList<>(List.of("web.port=0"));
        all.addAll(List.of(settings));
        server = new WebServer(null, Configs.of(WebServer.Config.class, all.toArray(String[]::new)));
    }

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.deactivate();
        }
    }

    private HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path));
    }

    private static JsonNode json(HttpResponse<String> r) throws Exception {
        return JSON.readTree(r.body());
    }

    @Test
    void contributionsAppearAndVanishWithoutRestart() throws Exception {
        start();
        var echo = part(new Echo(), Map.of("# things", 3));
        assertEquals(404, send(request("/test/echo/json")).statusCode());
        server.addContribution(echo);
        var r = send(request("/test/echo/json"));
        assertEquals(200, r.statusCode());
        assertEquals("world", json(r).get("hello").asText());
        assertEquals(3, json(send(request("/wm/core/controller/summary/json"))).get("# things").asInt());
        server.removeContribution(echo);
        var gone = send(request("/test/echo/json"));
        assertEquals(404, gone.statusCode());
        assertEquals("application/problem+json", gone.headers().firstValue("Content-Type").orElseThrow());
        assertTrue(json(gone).get("detail").asText().contains("/test/echo/json"));
        assertTrue(json(send(request("/wm/core/controller/summary/json"))).isEmpty());
    }

    @Test
    void pagesComeFromTheirContributionAndLeaveWithIt() throws Exception {
        start();
        var root = send(request("/"));
        assertEquals(302, root.statusCode());
        assertEquals("/ui/", root.headers().firstValue("Location").orElseThrow());
        var shell = send(request("/ui/"));
        assertEquals(200, shell.statusCode());
        assertTrue(shell.body().contains("/ui/shell.js"));
        assertTrue(shell.headers().firstValue("Content-Security-Policy").orElseThrow().contains("default-src 'self'"));
        assertEquals(List.of("overview", "bundles"), ids());

        // A contribution's page: listed in its order, its module read from the contribution's class loader.
        var pages = new IWebManageable() {
            @Override
            public List<Object> controllers() {
                return List.of();
            }

            @Override
            public List<Page> pages() {
                return List.of(new Page("things", "Things", 50, "ui/overview.js"),
                        new Page("overview", "Not the overview", 1, "ui/bundles.js"));
            }
        };
        server.addContribution(pages);
        assertEquals(List.of("overview", "things", "bundles"), ids(), "the platform's overview is not taken over");
        var module = send(request("/ui/pages/things.js"));
        assertEquals(200, module.statusCode());
        assertTrue(module.headers().firstValue("Content-Type").orElseThrow().startsWith("text/javascript"));
        assertTrue(module.body().contains("export async function render"));
        assertEquals("no-cache", module.headers().firstValue("Cache-Control").orElseThrow());
        server.removeContribution(pages);
        assertEquals(List.of("overview", "bundles"), ids());
        assertEquals(404, send(request("/ui/pages/things.js")).statusCode());
        assertEquals(404, send(request("/ui/nothing.js")).statusCode());
        // Jetty refuses an encoded path separator before any controller sees it.
        assertEquals(400, send(request("/ui/..%2Fweb%2Finternal%2FGuard.class")).statusCode());
    }

    private List<String> ids() throws Exception {
        var list = new java.util.ArrayList<String>();
        json(send(request("/wm/beacon/ui/pages/json"))).forEach(p -> list.add(p.get("id").asText()));
        return list;
    }

    @Test
    void floodlightControllerEndpoints() throws Exception {
        start();
        assertTrue(json(send(request("/wm/core/health/json"))).get("healthy").asBoolean());
        var memory = json(send(request("/wm/core/memory/json")));
        assertTrue(memory.get("total").asLong() >= memory.get("free").asLong());
        assertTrue(json(send(request("/wm/core/system/uptime/json"))).get("systemUptimeMsec").asLong() > 0);
    }

    @Test
    void crossSiteChangesAreRefusedAndSameOriginOnesPass() throws Exception {
        start();
        server.addContribution(part(new Echo(), Map.of()));
        var body = HttpRequest.BodyPublishers.ofString("{\"a\":1}");
        var evil = send(request("/test/echo/json").header("Content-Type", "application/json")
                .header("Origin", "http://evil.example").POST(body));
        assertEquals(403, evil.statusCode());
        assertTrue(json(evil).get("detail").asText().contains("cross-site"));
        var fetchSite = send(request("/test/echo/json").header("Content-Type", "application/json")
                .header("Sec-Fetch-Site", "cross-site").POST(body));
        assertEquals(403, fetchSite.statusCode());
        var own = send(request("/test/echo/json").header("Content-Type", "application/json")
                .header("Origin", "http://127.0.0.1:" + server.port()).POST(body));
        assertEquals(200, own.statusCode());
        assertEquals(1, json(own).get("a").asInt());
        var script = send(request("/test/echo/json").header("Content-Type", "application/json").POST(body));
        assertEquals(200, script.statusCode());
    }

    /** One raw HTTP/1.1 request (HttpClient will not set Host): the status code of the answer. */
    private int raw(String method, String path, String host, String... headers) throws Exception {
        try (var socket = new java.net.Socket("127.0.0.1", server.port())) {
            var out = new StringBuilder(method + " " + path + " HTTP/1.1\r\nHost: " + host + "\r\n");
            for (var h : headers) {
                out.append(h).append("\r\n");
            }
            out.append("Connection: close\r\nContent-Length: 0\r\n\r\n");
            socket.getOutputStream().write(out.toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            var status = new String(socket.getInputStream().readNBytes(12), java.nio.charset.StandardCharsets.US_ASCII);
            return Integer.parseInt(status.substring(9, 12));
        }
    }

    /** The raw answer to a request written as is (no Host added), read to the end of the connection. */
    private String rawAnswer(String request) throws Exception {
        try (var socket = new java.net.Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /**
     * Issue 28, found by the fuzz test: a request Jetty refuses itself had a JSON problem body only for GET, POST and
     * HEAD; a PUT, DELETE or an unknown method got an empty one.
     */
    @Test
    void jettysOwnRefusalsHaveAProblemBodyWhateverTheMethod() throws Exception {
        start();
        server.addContribution(part(new Echo(), Map.of()));
        var requests = List.of(
                "PUT //test/echo/json HTTP/1.1\r\nHost: 127.0.0.1\r\n",
                "DELETE /test/echo/json HTTP/1.1\r\n",
                "get /test/%C3%28/json HTTP/1.1\r\nHost: 127.0.0.1\r\n",
                "PATCH /test/echo/json HTTP/1.1\r\nHost: [::1\r\n",
                "OPTIONS /test/echo/json HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: a; b=\u007f\r\n");
        for (var request : requests) {
            var answer = rawAnswer(request + "Connection: close\r\nContent-Length: 0\r\n\r\n");
            assertTrue(answer.startsWith("HTTP/1.1 400"), request + " -> " + answer);
            assertTrue(answer.contains(Problems.TYPE), request + " -> " + answer);
            var body = JSON.readTree(answer.substring(answer.indexOf("\r\n\r\n") + 4));
            assertEquals(400, body.get("status").asInt(), request + " -> " + answer);
        }
    }

    /** DNS rebinding: a page on evil.example, its name now pointing at 127.0.0.1, sends its own name as Host. */
    @Test
    void aHostThatIsNotThisServersIsRefused() throws Exception {
        start();
        server.addContribution(part(new Echo(), Map.of()));
        int port = server.port();
        assertEquals(403, raw("GET", "/test/echo/json", "rebind.evil.example:" + port));
        assertEquals(403, raw("POST", "/test/echo/json", "rebind.evil.example:" + port,
                "Origin: http://rebind.evil.example:" + port), "an Origin that matches the bad Host is no better");
        assertEquals(200, raw("GET", "/test/echo/json", "127.0.0.1:" + port));
        assertEquals(200, raw("GET", "/test/echo/json", "localhost:" + port));
        assertEquals(200, raw("GET", "/test/echo/json", "[::1]:" + port));
        stop();
        start("web.hostNames=beacon.lab.example");
        server.addContribution(part(new Echo(), Map.of()));
        assertEquals(200, raw("GET", "/test/echo/json", "beacon.lab.example:" + server.port()));
    }

    /** Floodlight's GET that clears static flows: an img tag on any page would send it. */
    @Test
    void aGetThatWouldChangeStateIsRefusedUnlessOptedInAndThenGuardedLikeAPost() throws Exception {
        start();
        server.addContribution(part(new Clear(), Map.of()));
        var refused = send(request("/wm/staticflowpusher/clear/all/json"));
        assertEquals(405, refused.statusCode());
        assertTrue(json(refused).get("detail").asText().contains("web.floodlightGetClear"));
        assertEquals(405, send(request("/wm/acl/clear/json")).statusCode(), "the ACL's GET clear too");
        assertEquals(200, send(request("/wm/staticflowpusher/clear/all/json").POST(
                HttpRequest.BodyPublishers.noBody())).statusCode());
        stop();
        var hash = PasswordHash.of("s3cret".toCharArray());
        start("web.floodlightGetClear=true", "web.user=ops", "web.passwordHash=" + hash);
        server.addContribution(part(new Clear(), Map.of()));
        assertEquals(401, send(request("/wm/staticflowpusher/clear/all/json")).statusCode(), "credentials as for a POST");
        assertEquals(403, send(request("/wm/staticflowpusher/clear/all/json").header("Sec-Fetch-Site", "cross-site")
                .header("Authorization", basic("ops", "s3cret"))).statusCode(), "an img tag on another site");
        assertEquals(200, send(request("/wm/staticflowpusher/clear/all/json")
                .header("Authorization", basic("ops", "s3cret"))).statusCode());
    }

    @RestController
    static final class Clear {
        @org.springframework.web.bind.annotation.RequestMapping(value = "/wm/staticflowpusher/clear/{dpid}/json",
                method = {org.springframework.web.bind.annotation.RequestMethod.GET,
                    org.springframework.web.bind.annotation.RequestMethod.POST})
        Map<String, Object> clear() {
            return Map.of("status", "Deleted all flows.");
        }
    }

    @Test
    void bundlesBeaconNeedsCannotBeChangedOverHttp() {
        for (var name : List.of("org.eclipse.osgi", "org.apache.felix.scr", "org.apache.felix.configadmin",
                "org.apache.felix.metatype", "net.beaconcontroller.core", "net.beaconcontroller.web",
                "net.beaconcontroller.web.jetty", "net.beaconcontroller.config", "org.eclipse.jetty.server",
                "org.springframework.spring-webmvc", "com.fasterxml.jackson.core.jackson-databind", "slf4j.api",
                "org.apache.aries.spifly.dynamic.bundle")) {
            assertTrue(PlatformController.needed(name), name);
        }
        for (var name : List.of("net.beaconcontroller.hub", "net.beaconcontroller.core.web",
                "net.beaconcontroller.staticflowpusher.web", "net.beaconcontroller.topology", "com.hazelcast")) {
            assertFalse(PlatformController.needed(name), name);
        }
    }

    @Test
    void oversizedAndMalformedBodiesGetClearErrors() throws Exception {
        start("web.maxRequestKiB=1");
        server.addContribution(part(new Echo(), Map.of()));
        var big = "{\"a\":\"" + "x".repeat(2000) + "\"}";
        var r = send(request("/test/echo/json").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(big)));
        assertEquals(413, r.statusCode());
        assertTrue(json(r).get("detail").asText().contains("web.maxRequestKiB"));
        var bad = send(request("/test/echo/json").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{not json")));
        assertEquals(400, bad.statusCode());
        assertEquals(400, json(bad).get("status").asInt());
    }

    @Test
    void withCredentialsChangesNeedThem() throws Exception {
        var hash = PasswordHash.of("s3cret".toCharArray());
        start("web.user=ops", "web.passwordHash=" + hash);
        server.addContribution(part(new Echo(), Map.of()));
        assertEquals(200, send(request("/test/echo/json")).statusCode());
        var body = HttpRequest.BodyPublishers.ofString("{}");
        var anonymous = send(request("/test/echo/json").header("Content-Type", "application/json").POST(body));
        assertEquals(401, anonymous.statusCode());
        assertTrue(anonymous.headers().firstValue("WWW-Authenticate").orElseThrow().startsWith("Basic"));
        assertEquals(401, send(request("/test/echo/json").header("Content-Type", "application/json")
                .header("Authorization", basic("ops", "wrong")).POST(body)).statusCode());
        assertEquals(200, send(request("/test/echo/json").header("Content-Type", "application/json")
                .header("Authorization", basic("ops", "s3cret")).POST(body)).statusCode());
        assertEquals(401, send(request("/wm/beacon/bundles/json")).statusCode());
    }

    @Test
    void reachableFromOtherMachinesOnlyWithHttpsAndAPassword() {
        var noTls = assertThrows(SettingException.class, () -> start("web.listenAddress=192.0.2.1"));
        assertEquals("web.keystore", noTls.key());
        var noPassword = assertThrows(SettingException.class, () -> start("web.listenAddress=192.0.2.1",
                "web.keystore=/etc/hostname"));
        assertEquals("web.passwordHash", noPassword.key());
        var badHash = assertThrows(SettingException.class, () -> start("web.passwordHash=plaintext"));
        assertEquals("web.passwordHash", badHash.key());
    }

    /** Issue 28, finding 7: the refusal names every missing setting and what to do, in one line. */
    @Test
    void aRefusedStartNamesTheSettingsAndWhatToDo() throws Exception {
        var neither = assertThrows(SettingException.class, () -> start("web.listenAddress=192.0.2.1"));
        assertTrue(neither.allowed().contains("set web.keystore and web.passwordHash"), neither.getMessage());
        assertTrue(neither.allowed().contains("web.listenAddress = 127.0.0.1"), neither.getMessage());
        assertFalse(neither.getMessage().contains("\n"));
    }

    /** A controller that keeps what it is sent, read raw as the static flow pusher reads it. */
    @RestController
    static final class Store {
        final List<String> kept = new java.util.concurrent.CopyOnWriteArrayList<>();

        @PostMapping("/test/store/json")
        Map<String, Object> store(HttpServletRequest request) throws java.io.IOException {
            kept.add(new String(request.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            return Map.of("status", "kept");
        }

        @RequestMapping(value = "/test/params/json", method = {RequestMethod.GET, RequestMethod.POST})
        Map<String, String> params(@RequestParam Map<String, String> query) {
            return query;
        }
    }

    /** Issue 28, finding 4: what Spring or Jetty failed on with a 500 and a stack trace is a 4xx that keeps nothing. */
    @Test
    void malformedRequestsGetA4xxProblemKeepNothingAndLogNoTrace() throws Exception {
        var err = new java.io.ByteArrayOutputStream();
        var stderr = System.err;
        System.setErr(new java.io.PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            start();
            var store = new Store();
            server.addContribution(part(store, Map.of()));
            var flow = "{\"name\":\"f\"}";
            assertProblem(415, send(request("/test/store/json").header("Content-Type", "application/json; charset=@")
                    .POST(HttpRequest.BodyPublishers.ofString(flow))), "charset");
            assertProblem(415, send(request("/test/store/json").header("Content-Type", "text/plain; charset=\"x-nope\"")
                    .POST(HttpRequest.BodyPublishers.ofString(flow))), "charset");
            assertProblem(415, send(request("/test/store/json")
                    .header("Content-Type", "multipart/form-data; boundary=xyz")
                    .POST(HttpRequest.BodyPublishers.ofString(flow))), "multipart");
            assertProblem(400, send(request("/wm/beacon/bundles/json").header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(flow))), "multipart");
            assertProblem(400, send(request("/wm/beacon/bundles/json")
                    .header("Content-Type", "multipart/form-data; boundary=xyz")
                    .POST(HttpRequest.BodyPublishers.ofString("not multipart at all"))), "multipart");
            assertEquals(400, raw("GET", "/test/params/json?a=%ZZ", "127.0.0.1:" + server.port()));
            assertProblem(400, send(request("/test/params/json?a=%C3%28")), "query");
            assertEquals(200, send(request("/test/params/json?a=%C3%A9&b=1+2")).statusCode());
            var form = HttpRequest.BodyPublishers.ofByteArray(new byte[] {'a', '=', (byte) 0xc3, (byte) 0x28});
            var badForm = send(request("/test/params/json").header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(form));
            assertEquals(400, badForm.statusCode(), badForm.body());
            assertEquals(Problems.TYPE, badForm.headers().firstValue("Content-Type").orElseThrow());
            assertEquals(List.of(), store.kept, "a refused request keeps nothing");
            // Jetty's own error pages: a path it refuses before any servlet, a header line it cannot parse.
            assertProblem(400, send(request("/ui/..%2Fweb%2Finternal%2FGuard.class")), "");
            assertEquals(400, raw("GET", "/test/params/json", "127.0.0.1:" + server.port(), "Bad Header Line"));
        } finally {
            System.setErr(stderr);
        }
        var log = err.toString(StandardCharsets.UTF_8);
        assertFalse(log.contains("\tat "), log);
        assertFalse(log.contains("ERROR"), log);
    }

    private static void assertProblem(int status, HttpResponse<String> r, String detail) throws Exception {
        assertEquals(status, r.statusCode(), r.body());
        assertEquals(Problems.TYPE, r.headers().firstValue("Content-Type").orElseThrow().split(";")[0], r.body());
        assertEquals(status, json(r).get("status").asInt(), r.body());
        assertTrue(json(r).get("detail").asText().contains(detail), r.body());
    }

    /** Issue 28, finding 6: the limit holds for the bytes sent, whatever Content-Length says or if it is missing. */
    @Test
    void aChunkedBodyOverTheLimitIsA413AndKeptNowhere() throws Exception {
        start();
        var store = new Store();
        server.addContribution(part(store, Map.of()));
        // Raw: the server answers while the client is still sending, which HttpClient reports as a broken connection.
        try (var socket = new java.net.Socket("127.0.0.1", server.port())) {
            var out = socket.getOutputStream();
            out.write(("POST /test/store/json HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            var chunk = ("10000\r\n" + "x".repeat(0x10000) + "\r\n").getBytes(StandardCharsets.US_ASCII);
            var sender = new Thread(() -> {
                try {
                    for (int i = 0; i < 32; i++) {
                        out.write(chunk);
                    }
                    out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                } catch (java.io.IOException e) {
                    // The server stopped reading after its answer.
                }
            });
            sender.start();
            var answer = new String(socket.getInputStream().readNBytes(4096), StandardCharsets.US_ASCII);
            sender.join();
            assertTrue(answer.startsWith("HTTP/1.1 413"), answer);
            assertTrue(answer.contains("web.maxRequestKiB"), answer);
        }
        var small = send(request("/test/store/json").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(
                        "{}".getBytes(StandardCharsets.UTF_8)))));
        assertEquals(200, small.statusCode(), small.body());
        assertEquals(List.of("{}"), store.kept);
    }

    /**
     * Issue 28, finding 6: clients sending their bodies a byte at a time, more of them than the server has threads,
     * neither freeze the API nor hold their connection for long.
     */
    @Test
    @Timeout(60)
    void slowClientsCannotFreezeTheApi() throws Exception {
        start();
        server.addContribution(part(new Store(), Map.of()));
        int n = 2 * WebServer.THREADS;
        var slow = new java.util.ArrayList<java.net.Socket>();
        var drip = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
        try {
            for (int i = 0; i < n; i++) {
                var s = new java.net.Socket("127.0.0.1", server.port());
                s.setSoTimeout(15_000);
                s.getOutputStream().write(("POST /test/store/json HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
                        .getBytes(StandardCharsets.US_ASCII));
                slow.add(s);
            }
            drip.scheduleAtFixedRate(() -> slow.forEach(s -> {
                try {
                    s.getOutputStream().write(' ');
                } catch (java.io.IOException e) {
                    // Answered and closed by the server: what the test waits for.
                }
            }), 0, 1, java.util.concurrent.TimeUnit.SECONDS);
            long t0 = System.nanoTime();
            var health = http.send(request("/wm/core/health/json").timeout(java.time.Duration.ofSeconds(3)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, health.statusCode());
            assertTrue(System.nanoTime() - t0 < 3_000_000_000L);
            // Each slow client is answered: refused at once (429) or cut for its rate (408), within seconds.
            for (var s : slow) {
                var status = new String(s.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
                int code = Integer.parseInt(status.substring(9, 12));
                assertTrue(code == 429 || code == 408, status);
            }
        } finally {
            drip.shutdownNow();
            for (var s : slow) {
                s.close();
            }
        }
    }

    /**
     * Issue 28: a client that declares a body and sends none of it is answered 408 after the grace period, as a
     * dripping one is, and not left to the 30 s idle timeout.
     */
    @Test
    @Timeout(20)
    void aClientThatSendsNoneOfItsBodyGetsA408Soon() throws Exception {
        start();
        var store = new Store();
        server.addContribution(part(store, Map.of()));
        try (var s = new java.net.Socket("127.0.0.1", server.port())) {
            s.setSoTimeout(15_000);
            long t0 = System.nanoTime();
            s.getOutputStream().write(("POST /test/store/json HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 500\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            var answer = new String(s.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
            long waited = (System.nanoTime() - t0) / 1_000_000L;
            assertEquals("HTTP/1.1 408", answer);
            assertTrue(waited < 5_000, waited + " ms");
        }
        assertEquals(List.of(), store.kept);
        assertEquals(200, send(request("/wm/core/health/json")).statusCode());
    }

    /** A controller that reads its body, then works longer than the grace period (waiting on a switch, say). */
    @RestController
    static final class Slow {
        @PostMapping("/test/slow/json")
        Map<String, Object> work(@RequestBody Map<String, Object> body) throws InterruptedException {
            Thread.sleep(Limited.GRACE_NANOS / 1_000_000L + 1_500);
            return body;
        }
    }

    /**
     * Issue 28: the short idle timeout that answers a silent client 408 does not cut a controller that works longer
     * than it once the body is read.
     */
    @Test
    @Timeout(20)
    void aControllerSlowerThanTheGracePeriodIsAnswered() throws Exception {
        start();
        server.addContribution(part(new Slow(), Map.of()));
        var r = send(request("/test/slow/json").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"a\":1}")));
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(1, json(r).get("a").asInt());
    }

    @Test
    @Timeout(20)
    void serverPushSendsWhatClientsChoseInOrder() throws Exception {
        start();
        var all = http.send(request("/wm/beacon/events").build(), HttpResponse.BodyHandlers.ofLines());
        var links = http.send(request("/wm/beacon/events?topics=link").build(), HttpResponse.BodyHandlers.ofLines());
        assertEquals("text/event-stream", all.headers().firstValue("Content-Type").orElseThrow().split(";")[0]);
        var allLines = all.body().iterator();
        var linkLines = links.body().iterator();
        assertEquals("event:hello", next(allLines, "event:"));
        assertEquals("event:hello", next(linkLines, "event:"));
        server.publish("device-added", Map.of("mac", List.of("00:00:00:00:00:01")));
        server.publish("link-removed", Map.of("src-port", 1));
        assertEquals("event:device-added", next(allLines, "event:"));
        assertEquals("data:{\"mac\":[\"00:00:00:00:00:01\"]}", next(allLines, "data:"));
        assertEquals("event:link-removed", next(allLines, "event:"));
        // The link client never sees the device event: its next event is the link.
        assertEquals("event:link-removed", next(linkLines, "event:"));
        assertEquals("data:{\"src-port\":1}", next(linkLines, "data:"));
        var metrics = send(request("/metrics")).body();
        assertTrue(metrics.contains("beacon_web_event_clients 2"), metrics);
    }

    /** The next line that starts with {@code prefix}; the stream blocks until the server sends it. */
    private static String next(java.util.Iterator<String> lines, String prefix) {
        while (lines.hasNext()) {
            var line = lines.next();
            if (line.startsWith(prefix)) {
                return line;
            }
        }
        throw new AssertionError("the stream ended before a line starting with " + prefix);
    }

    @Test
    void httpsWithAKeyStore(@TempDir Path dir) throws Exception {
        var store = dir.resolve("beacon.p12");
        var keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "beacon", "-keyalg", "EC", "-dname", "CN=127.0.0.1", "-ext", "SAN=ip:127.0.0.1",
                "-validity", "2",
                "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", "changeit")
                .redirectErrorStream(true).start();
        assertEquals(0, keytool.waitFor(), new String(keytool.getInputStream().readAllBytes()));
        start("web.keystore=" + store, "web.keystorePassword=changeit");
        // The test trusts the certificate it just made.
        var keys = KeyStore.getInstance("PKCS12");
        try (var in = Files.newInputStream(store)) {
            keys.load(in, "changeit".toCharArray());
        }
        var trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(keys);
        var tls = SSLContext.getInstance("TLS");
        tls.init(null, trust.getTrustManagers(), null);
        var https = HttpClient.newBuilder().sslContext(tls).build();
        var r = https.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port()
                + "/wm/core/health/json")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode());
        assertTrue(json(r).get("healthy").asBoolean());
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }
}
