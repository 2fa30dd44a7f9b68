# The fluxwatch container image, built by goreleaser (.goreleaser.yaml) from
# the release binary of each platform: no compiler, no source in the image.
#
# Alpine rather than scratch: CI systems (GitLab, Jenkins) run their job
# scripts with the image's shell, and `fluxwatch plan` asks git for the
# branch. ENTRYPOINT is fluxwatch, so `docker run IMAGE synth DIR` works;
# override it (entrypoint: [""]) where a CI system runs a script instead.
FROM alpine:3.22
RUN apk add --no-cache ca-certificates git
ARG TARGETPLATFORM
COPY $TARGETPLATFORM/fluxwatch /usr/local/bin/fluxwatch
WORKDIR /work
ENTRYPOINT ["/usr/local/bin/fluxwatch"]
CMD ["help"]
