"""Cancel-Document (PWG 5100.5 section 7.2): a document of a job that has not started is left out when it prints;
the last document of a job being printed cancels the job, as Cancel-Job does; one of several documents being printed
together is refused, as is a document of an ended job."""
from vprinter import documents, ipp

PROFILE = "duplex-laser"
CANCELED = 7  # document-state canceled (PWG 5100.5 section 8.3.2)


def job_with_documents(printer, count, hold=False, pages=1):
    """A job made with Create-Job and ``count`` Send-Documents of ``pages`` pages each; its id."""
    job = printer.ipp(ipp.CREATE_JOB, {"job-name": "documents"},
                      {"job-hold-until": "indefinite"} if hold else None).job_id
    for number in range(1, count + 1):
        answer = printer.ipp(ipp.SEND_DOCUMENT, {"job-id": job, "last-document": number == count,
                                                 "document-format": "application/pdf"},
                             document=documents.pdf(["document %d page %d" % (number, page)
                                                     for page in range(1, pages + 1)]))
        assert answer.status == ipp.SUCCESSFUL_OK, answer.status_message
    return job


def document_state(printer, job, number):
    answer = printer.ipp(ipp.GET_DOCUMENT_ATTRIBUTES, {"job-id": job, "document-number": number})
    assert answer.status == ipp.SUCCESSFUL_OK, answer.status_message
    return answer.values("document-state")[0], answer.values("document-state-reasons")


def test_a_document_of_a_held_job_is_left_out_when_it_prints(start_printer):
    printer = start_printer(profile=PROFILE)
    job = job_with_documents(printer, 2, hold=True)
    answer = printer.ipp(ipp.CANCEL_DOCUMENT, {"job-id": job, "document-number": 1})
    assert answer.status == ipp.SUCCESSFUL_OK, answer.status_message
    assert document_state(printer, job, 1) == (CANCELED, ["canceled-by-user"])
    assert printer.ipp(ipp.RELEASE_JOB, {"job-id": job}).status == ipp.SUCCESSFUL_OK
    record = printer.wait_for_job_state(job, "completed")
    assert [side["pages"] for side in record["impressions"]] == [[{"document": 2, "page": 1}]]
    assert record["documents"][0]["document-state"] == "canceled"
    assert record["documents"][1]["pages"] == 1


def test_the_last_document_of_a_printing_job_cancels_the_job(start_printer):
    printer = start_printer("--speed", "realistic", profile=PROFILE)
    job = job_with_documents(printer, 1, pages=20)
    printer.wait_for_job_state(job, "processing")
    answer = printer.ipp(ipp.CANCEL_DOCUMENT, {"job-id": job, "document-number": 1})
    assert answer.status == ipp.SUCCESSFUL_OK, answer.status_message
    assert document_state(printer, job, 1)[0] == CANCELED
    record = printer.wait_for_job_state(job, "canceled")
    assert "job-canceled-by-user" in record["job-state-reasons"]
    again = printer.ipp(ipp.CANCEL_DOCUMENT, {"job-id": job, "document-number": 1})
    assert again.status == ipp.CLIENT_ERROR_NOT_POSSIBLE


def test_one_of_several_documents_being_printed_is_refused(start_printer):
    printer = start_printer("--speed", "realistic", profile=PROFILE)
    job = job_with_documents(printer, 2, pages=10)
    printer.wait_for_job_state(job, "processing")
    answer = printer.ipp(ipp.CANCEL_DOCUMENT, {"job-id": job, "document-number": 2})
    assert answer.status == ipp.CLIENT_ERROR_NOT_POSSIBLE
    assert "Cancel-Job" in answer.status_message
    assert document_state(printer, job, 2)[0] != CANCELED
    assert printer.ipp(ipp.CANCEL_JOB, {"job-id": job}).status == ipp.SUCCESSFUL_OK


def test_documents_of_ended_jobs_and_unknown_documents(start_printer):
    printer = start_printer(profile=PROFILE)
    job = job_with_documents(printer, 1)
    printer.wait_for_job_state(job, "completed")
    ended = printer.ipp(ipp.CANCEL_DOCUMENT, {"job-id": job, "document-number": 1})
    assert ended.status == ipp.CLIENT_ERROR_NOT_POSSIBLE
    unknown = printer.ipp(ipp.CANCEL_DOCUMENT, {"job-id": job, "document-number": 9})
    assert unknown.status == ipp.CLIENT_ERROR_NOT_FOUND
