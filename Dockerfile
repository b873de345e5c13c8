# The Ludus server: build with the Rust toolchain, run from a small non-root image.
FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --locked -p ludus-server

FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /var/lib/ludus --create-home ludus
COPY --from=build /src/target/release/ludus /usr/local/bin/ludus
COPY static /usr/share/ludus/static
USER ludus
WORKDIR /var/lib/ludus
ENV LUDUS_LISTEN=0.0.0.0:8080 \
    LUDUS_STATIC_DIR=/usr/share/ludus/static \
    DATABASE_URL=sqlite:///var/lib/ludus/ludus.db \
    LUDUS_LOG_FORMAT=json
EXPOSE 8080
# `ludus health` checks /readyz on loopback at the port of LUDUS_LISTEN.
HEALTHCHECK --interval=10s --timeout=3s --retries=3 CMD ["ludus", "health"]
ENTRYPOINT ["ludus"]
CMD ["serve"]
