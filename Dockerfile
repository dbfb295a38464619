# The same environment as ci/setup.sh, on a CUDA toolkit image so that the CUDA kernels compile.
# Build: docker build -t torch-abi-check .   Run: docker run --rm torch-abi-check bash ci/main.sh
FROM nvidia/cuda:13.0.1-devel-ubuntu24.04

ENV DEBIAN_FRONTEND=noninteractive
WORKDIR /opt/torch-abi-check
COPY . .
RUN bash ci/setup.sh && bash ci/build.sh
CMD ["bash", "ci/main.sh"]
