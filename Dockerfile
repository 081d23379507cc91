# The assistant (and the CRM stub, the same image with another command).
#   docker build -t voice-crm-assistant .
#   docker compose up          # assistant with N workers, Redis, the CRM stub
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app
COPY pyproject.toml README.md ./
COPY assistant ./assistant
COPY crm_stub ./crm_stub
COPY config ./config
RUN pip install . && useradd --create-home --uid 10001 assistant && mkdir -p /app/var \
    && chown assistant /app/var
USER assistant

EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8080/healthz', timeout=2)"
# Settings come from ASSISTANT_* variables (README, "Running in production").
CMD ["assistant", "serve", "--host", "0.0.0.0", "--port", "8080", "--workers", "auto"]
