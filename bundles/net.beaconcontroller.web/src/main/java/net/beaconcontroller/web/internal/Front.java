package net.beaconcontroller.web.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.springframework.web.context.support.AnnotationConfigWebApplicationContext;
import org.springframework.web.servlet.DispatcherServlet;

import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * The one servlet: checks each request with the {@link Guard}, bounds what a body may bring whatever its
 * {@code Content-Length} said (chunked bodies have none), then hands it to the current Spring MVC dispatcher.
 * When the set of controllers changes, a new dispatcher is built beside the old one and takes over; the old one is
 * destroyed once its last request has left, so nothing of a stopped bundle stays reachable and no request is cut off.
 */
final class Front extends HttpServlet {
    private static final long serialVersionUID = 1L;

    private final transient Guard guard;
    /** Requests whose body is being read: the server's other threads stay free for the rest, however slow they are. */
    private final transient Semaphore bodies;
    private final transient Supplier<List<Object>> controllers;
    private transient volatile Generation current;

    /**
     * @param bodyReaders how many requests with a body are served at once; more are refused with 429
     * @param controllers what to serve when the server starts
     */
    Front(int bodyReaders, Guard guard, Supplier<List<Object>> controllers) {
        this.bodies = new Semaphore(bodyReaders);
        this.guard = guard;
        this.controllers = controllers;
    }

    /** Jetty starts servlets before it opens its port: the first request already finds a dispatcher. */
    @Override
    public void init() throws ServletException {
        publish(controllers.get());
    }

    /** Serves these controllers from now on. */
    synchronized void publish(List<Object> controllers) throws ServletException {
        var ctx = new AnnotationConfigWebApplicationContext();
        ctx.setClassLoader(Front.class.getClassLoader());
        ctx.register(MvcConfig.class);
        ctx.addBeanFactoryPostProcessor(factory -> {
            int i = 0;
            for (var controller : controllers) {
                factory.registerSingleton(controller.getClass().getName() + "#" + i++, controller);
            }
        });
        var dispatcher = new DispatcherServlet(ctx);
        var thread = Thread.currentThread();
        var loader = thread.getContextClassLoader();
        thread.setContextClassLoader(Front.class.getClassLoader());
        try {
            dispatcher.init(config(getServletContext()));
        } finally {
            thread.setContextClassLoader(loader);
        }
        var old = current;
        current = new Generation(dispatcher);
        if (old != null) {
            old.leave();
        }
    }

    @Override
    public void destroy() {
        var old = current;
        current = null;
        if (old != null) {
            old.leave();
        }
    }

    @Override
    protected void service(HttpServletRequest req, HttpServletResponse resp) throws ServletException, IOException {
        var refusal = guard.check(req);
        if (refusal != null) {
            if (refusal.status() == 401) {
                resp.setHeader("WWW-Authenticate", "Basic realm=\"Beacon\", charset=\"UTF-8\"");
            }
            problem(resp, refusal.status(), refusal.message());
            return;
        }
        boolean body = req.getContentLengthLong() > 0 || req.getHeader("Transfer-Encoding") != null;
        if (!body) {
            dispatch(req, resp);
            return;
        }
        if (!bodies.tryAcquire()) {
            resp.setHeader("Retry-After", "1");
            problem(resp, 429, "too many requests are sending a body at once: retry in a second");
            return;
        }
        try {
            if (Guard.isMultipart(req)) {
                dispatch(req, resp);
            } else {
                try (var limited = Limited.of(req, guard.maxBody())) {
                    dispatch(limited, resp);
                }
            }
        } finally {
            bodies.release();
        }
    }

    private void dispatch(HttpServletRequest req, HttpServletResponse resp) throws ServletException, IOException {
        Generation generation;
        do {
            generation = current;
            if (generation == null) {
                problem(resp, 503, "the web server is stopping");
                return;
            }
        } while (!generation.enter());
        try {
            generation.dispatcher.service(req, resp);
        } finally {
            generation.leave();
        }
    }

    static void problem(HttpServletResponse resp, int status, String detail) throws IOException {
        resp.setStatus(status);
        resp.setContentType(Problems.TYPE);
        resp.setCharacterEncoding("UTF-8");
        resp.getOutputStream().write(Problems.json(status, detail).getBytes(StandardCharsets.UTF_8));
    }

    /** A dispatcher and the requests inside it; the extra count of one is the hold of being current. */
    private static final class Generation {
        final DispatcherServlet dispatcher;
        private final AtomicInteger holds = new AtomicInteger(1);

        Generation(DispatcherServlet dispatcher) {
            this.dispatcher = dispatcher;
        }

        boolean enter() {
            for (;;) {
                int n = holds.get();
                if (n == 0) {
                    return false;
                }
                if (holds.compareAndSet(n, n + 1)) {
                    return true;
                }
            }
        }

        void leave() {
            if (holds.decrementAndGet() == 0) {
                dispatcher.destroy();
            }
        }
    }

    private static ServletConfig config(ServletContext context) {
        return new ServletConfig() {
            @Override
            public String getServletName() {
                return "beacon";
            }

            @Override
            public ServletContext getServletContext() {
                return context;
            }

            @Override
            public String getInitParameter(String name) {
                return null;
            }

            @Override
            public Enumeration<String> getInitParameterNames() {
                return Collections.emptyEnumeration();
            }
        };
    }
}
